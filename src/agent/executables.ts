import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Env } from './environment';

/**
 * Which file a command runs, found before it is spawned, so that a workspace can never choose it.
 * Left to the system, it could: on Windows, libuv's spawn (no shell) searches the current
 * directory before PATH, so an `opencode.exe` at a cloned repository's root wins over the one
 * installed; on POSIX, a PATH entry that is relative (``, `.`, `./bin`) or lies in the workspace
 * does the same. So agents, client terminals (the program, or the shell a command line runs in)
 * and MCP servers are spawned by absolute path, found here in PATH entries that are absolute and
 * outside the workspace's folders (with PATHEXT on Windows).
 *
 * Not npm `which`: it too looks in the current directory first on Windows (the very behaviour
 * avoided here) and cannot be told which directories to skip.
 */

/** What the search asks of the file system: replaced in tests, so both path flavours run anywhere. */
export interface ExecutableFiles {
  /** A regular file this user may run (on Windows: a regular file). */
  isExecutable(file: string): boolean;
  /** The directory with its links resolved; itself when it cannot be resolved. */
  realpath(dir: string): string;
}

export interface ExecutableSearch {
  /** PATH and, on Windows, PATHEXT (their names in any case, as Windows reads them). */
  env: Env;
  /** Where a relative path with a slash (`./bin/agent`) is resolved, explicitly: never searched. None: such a path is not resolved. */
  cwd?: string;
  /** Folders a program is never taken from: the workspace's. */
  excluded: readonly string[];
  platform?: NodeJS.Platform;
  files?: ExecutableFiles;
}

const realFiles = (platform: NodeJS.Platform): ExecutableFiles => ({
  isExecutable(file) {
    try {
      if (!statSync(file).isFile()) return false;
      if (platform !== 'win32') accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  realpath(dir) {
    try {
      return realpathSync(dir);
    } catch {
      return dir;
    }
  },
});

const WINDOWS_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** What a "not found on PATH" message adds, so the user knows why a program in the workspace was not taken. */
export const NOT_SEARCHED = 'relative PATH entries and folders of the workspace are not searched';

function envValue(env: Env, name: string, windows: boolean): string | undefined {
  if (!windows) return env[name];
  return Object.entries(env).find(([key]) => key.toUpperCase() === name)?.[1];
}

/**
 * The absolute path `command` runs: an absolute path as it is; a relative path with a separator
 * against `cwd` (when given); a bare name from the first PATH entry that is absolute, outside `excluded`, and
 * holds it (on Windows, with each PATHEXT extension unless the name already has one of them).
 * Undefined when no such entry holds it.
 */
export function resolveExecutable(command: string, search: ExecutableSearch): string | undefined {
  const platform = search.platform ?? process.platform;
  const windows = platform === 'win32';
  const flavour = windows ? path.win32 : path.posix;
  const files = search.files ?? realFiles(platform);
  if (flavour.isAbsolute(command)) return command;
  if (command.includes('/') || (windows && command.includes('\\'))) return search.cwd === undefined ? undefined : flavour.resolve(search.cwd, command);
  if (command === '' || command === '.' || command === '..') return undefined;
  const extensions = windows ? windowsExtensions(command, envValue(search.env, 'PATHEXT', true) ?? WINDOWS_PATHEXT) : [''];
  const excluded = search.excluded.filter((dir) => flavour.isAbsolute(dir)).flatMap((dir) => [dir, files.realpath(dir)]);
  for (const entry of (envValue(search.env, 'PATH', windows) ?? '').split(flavour.delimiter)) {
    // Windows keeps a quoted entry quoted ("C:\Program Files\x"): the quotes are not part of it.
    const dir = windows ? entry.replace(/^"(.*)"$/, '$1') : entry;
    if (!flavour.isAbsolute(dir) || isInside(dir, excluded, flavour, windows) || isInside(files.realpath(dir), excluded, flavour, windows)) continue;
    for (const extension of extensions) {
      const candidate = flavour.join(dir, command + extension);
      if (files.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The name as it is when it already ends in a PATHEXT extension (`npx.cmd`), else the name with each of them. */
function windowsExtensions(command: string, pathext: string): string[] {
  const extensions = pathext.split(';').filter((e) => e.startsWith('.'));
  const own = path.win32.extname(command).toUpperCase();
  return own !== '' && extensions.some((e) => e.toUpperCase() === own) ? [''] : extensions;
}

/** `dir` is one of `folders` or lies inside one (compared without case on Windows, as its file systems do). */
function isInside(dir: string, folders: readonly string[], flavour: typeof path.posix, windows: boolean): boolean {
  const fold = (p: string) => (windows ? p.toLowerCase() : p);
  return folders.some((folder) => {
    const relative = flavour.relative(fold(flavour.resolve(folder)), fold(flavour.resolve(dir)));
    return relative === '' || (relative !== '..' && !relative.startsWith(`..${flavour.sep}`) && !flavour.isAbsolute(relative));
  });
}
