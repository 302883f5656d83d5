// The pure half of path confinement: what an agent's path may look like, and whether a resolved
// path lies inside a root. No vscode and no I/O, so every hostile form is unit-tested on both
// path flavours (test/unit/pathPolicy.test.ts); workspacePaths.ts adds realpath and the folders.
import * as nodePath from 'node:path';

/** The `path` module of one platform (path.posix or path.win32; tests use both). */
export type PathFlavour = typeof nodePath.posix;

/** Longer than any real path (Linux PATH_MAX is 4096): refused before it reaches the file system. */
export const MAX_PATH_LENGTH = 4096;
/** NAME_MAX on common file systems, counted in UTF-16 code units (a lower bound of the bytes). */
export const MAX_SEGMENT_LENGTH = 255;

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

const refuse = (reason: string): PathCheck => ({ ok: false, reason });

// `file:`, `vscode-remote:`, `http:`… but not a Windows drive (`C:`), which is one letter.
const URI_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;
const WINDOWS_DRIVE_ABSOLUTE = /^[a-zA-Z]:[\\/]/;
// CON, NUL, COM1… open devices on Windows whatever the folder or extension.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * Checks the form of a path an agent sent (ACP: absolute, a path, not a URI) and returns it
 * normalized (`.` and `..` folded lexically). Whether it is inside the workspace is decided
 * later, after symlinks are followed: a `..` that stays inside is fine, one that escapes is
 * refused there. Home-relative, UNC, device and URI forms are refused here.
 */
export function checkAgentPath(requested: unknown, p: PathFlavour = nodePath): PathCheck {
  if (typeof requested !== 'string') return refuse('it is not a string');
  if (requested === '') return refuse('it is empty');
  if (requested.length > MAX_PATH_LENGTH) return refuse(`it is longer than ${MAX_PATH_LENGTH} characters`);
  if (requested.includes('\0')) return refuse('it contains a NUL byte');
  if (requested.startsWith('~')) return refuse('home-relative paths (~, ~user) are not expanded; send an absolute path');
  if (URI_SCHEME.test(requested)) return refuse('it is a URI; send a file system path');
  // `\\server\share`, `\\?\C:\…`, `\\.\device`, and `//server/share` (also on POSIX, where it is
  // implementation-defined and some systems treat it as a network path).
  if (/^[\\/]{2}/.test(requested)) return refuse('network (UNC) and device paths are not allowed');
  const windows = p.sep === '\\';
  if (windows) {
    // `\foo` is "the current drive", and `C:foo` is relative to C:'s current folder.
    if (!WINDOWS_DRIVE_ABSOLUTE.test(requested)) return refuse('it is not an absolute path with a drive letter');
    // A colon after the drive names an alternate data stream (file.txt:secret).
    if (requested.indexOf(':', 2) !== -1) return refuse('it names an alternate data stream');
  } else if (!p.isAbsolute(requested)) {
    return refuse('it is not an absolute path');
  }
  const segments = requested.split(windows ? /[\\/]/ : '/');
  if (segments.some((s) => s.length > MAX_SEGMENT_LENGTH)) return refuse(`a path segment is longer than ${MAX_SEGMENT_LENGTH} characters`);
  if (windows && segments.some((s) => WINDOWS_DEVICE.test(s.replace(/[. ]+$/, '')))) return refuse('it names a Windows device');
  return { ok: true, path: p.normalize(requested) };
}

/**
 * True when `candidate` is `root` or below it. Both must be absolute and already resolved
 * (realpath): this compares names only. Unlike `rel.startsWith('..')` it accepts a file named
 * `..foo` inside the root, and on Windows it compares case-insensitively (path.win32.relative).
 */
export function isInside(root: string, candidate: string, p: PathFlavour = nodePath): boolean {
  const rel = p.relative(root, candidate);
  if (rel === '') return true;
  if (p.isAbsolute(rel)) return false; // another drive on Windows
  const first = rel.split(p.sep)[0];
  return first !== '..';
}
