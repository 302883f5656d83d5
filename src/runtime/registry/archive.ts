// Unpacking an agent's download into its folder: .zip (yauzl), .tar/.tar.gz/.tgz (tar), or a
// bare executable saved as it is. Every entry must land inside the folder (zip-slip), links
// included; devices and the like are refused, and so is an archive that unpacks too large.
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import * as yauzl from 'yauzl';
import { insideFolder } from './distribution';

export type ArchiveKind = 'zip' | 'tar' | 'raw';

/** What the archive at `url` is, by its name; throws for a compression this cannot unpack. */
export function archiveKind(url: string): ArchiveKind {
  const name = new URL(url).pathname.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (/\.(tar|tar\.gz|tgz)$/.test(name)) return 'tar';
  if (/\.(gz|bz2|xz|zst|7z|rar|tbz2?|txz|dmg|pkg|msi)$/.test(name)) throw new Error(`cannot unpack ${path.posix.basename(name)}: only .zip, .tar, .tar.gz and .tgz are supported`);
  return 'raw';
}

/** Unpacks `file` into the (existing, empty) folder `dir`; `cmd` names the executable a raw download is saved as. */
export async function unpack(file: string, kind: ArchiveKind, dir: string, cmd: string, maxBytes: number): Promise<void> {
  if (kind === 'raw') return copyFile(file, insideFolder(dir, cmd));
  if (kind === 'zip') return unzip(file, dir, maxBytes);
  return untar(file, dir, maxBytes);
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function unzip(file: string, dir: string, maxBytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    // yauzl checks names itself too (absolute, "..") and that entry sizes are what they claim.
    yauzl.open(file, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (openError, zip) => {
      if (openError || !zip) return reject(openError ?? new Error('cannot open the zip'));
      let total = 0;
      const fail = (error: Error) => {
        zip.close();
        reject(error);
      };
      zip.on('error', fail);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const target = insideFolder(dir, entry.fileName);
          if (entry.fileName.endsWith('/')) {
            await mkdir(target, { recursive: true });
            return zip.readEntry();
          }
          // Links in a zip could point anywhere: agents' zips hold files and folders.
          if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw new Error(`"${entry.fileName}" is a symbolic link: refused`);
          total += entry.uncompressedSize;
          if (total > maxBytes) throw new Error(`the archive unpacks to more than ${maxBytes} bytes`);
          await mkdir(path.dirname(target), { recursive: true });
          const stream = await new Promise<NodeJS.ReadableStream>((ok, no) => zip.openReadStream(entry, (e, s) => (e || !s ? no(e) : ok(s))));
          await pipeline(stream, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
          zip.readEntry();
        })().catch(fail);
      });
      zip.readEntry();
    });
  });
}

const TAR_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);

/** Every entry checked first (a refused archive writes nothing), then extracted. */
async function untar(file: string, dir: string, maxBytes: number): Promise<void> {
  let total = 0;
  let refused: Error | undefined;
  await tar.t({
    file,
    strict: true,
    onReadEntry: (entry) => {
      try {
        const target = insideFolder(dir, entry.path);
        if (!TAR_TYPES.has(entry.type)) throw new Error(`"${entry.path}" is a ${entry.type}: refused`);
        // A symbolic link resolves from its own folder, a hard link from the archive's root.
        if (entry.type === 'SymbolicLink') insideFolder(dir, path.relative(dir, path.resolve(path.dirname(target), entry.linkpath ?? '')));
        if (entry.type === 'Link') insideFolder(dir, entry.linkpath ?? '');
        total += entry.size ?? 0;
        if (total > maxBytes) throw new Error(`the archive unpacks to more than ${maxBytes} bytes`);
      } catch (error) {
        refused ??= error as Error;
      }
    },
  });
  if (refused) throw refused;
  await tar.x({ file, cwd: dir, strict: true, preservePaths: false });
}
