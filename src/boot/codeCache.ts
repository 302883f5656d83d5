import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';

/**
 * Loads a CommonJS bundle the way `require` does, with V8's code cache: the bytecode of the
 * bundle's start, kept from an earlier start, instead of compiling it again. Compiling the
 * extension's bundle is about a third of its activation; a window opened after the first one
 * skips it. This is the mechanism VS Code uses for its own code and Node's compile cache for
 * modules, done for one file, by its owner, rather than switched on for every module of the
 * shared extension host (`module.enableCompileCache` is process-wide).
 *
 * The cache file is named by a hash of the bundle's text and of the runtime (Node, V8, platform):
 * V8 checks its version and flags itself, but only the source's length, so a rebuilt bundle of
 * the same length must not reach another build's bytecode. A cache that V8 still rejects is
 * written again. Any failure to read or write it only costs the next start its compile time.
 */
export function loadWithCodeCache(file: string, cacheDir: string, load: NodeJS.Require, saveAfterMs = SAVE_AFTER_MS): Loaded {
  const source = readFileSync(file, 'utf8');
  const key = createHash('sha256').update(source).update(`${process.version} ${process.versions.v8} ${process.arch}`).digest('hex').slice(0, 24);
  const cacheFile = path.join(cacheDir, `${path.basename(file)}.${key}.cache`);
  const cachedData = readOrNothing(cacheFile);
  // The wrapper Node gives every CommonJS module (`Module.wrap`): the bundle sees exactly what `require` would give it.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, load, module, file, path.dirname(file));
  const cached = cachedData !== undefined && !script.cachedDataRejected;
  if (!cached) setTimeout(() => save(script, cacheDir, cacheFile), saveAfterMs).unref();
  return { exports: module.exports, cached };
}

export interface Loaded {
  exports: unknown;
  /** Whether V8 took the bytecode from the cache (when not, the cache is written `saveAfterMs` later). */
  cached: boolean;
}

/** After the first paint: the cache then holds the functions that compiled too. */
const SAVE_AFTER_MS = 5000;

function readOrNothing(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache whole (a temporary file renamed over it) and drops those of other builds. */
function save(script: vm.Script, cacheDir: string, cacheFile: string): void {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile);
    const mine = path.basename(cacheFile);
    const prefix = mine.slice(0, mine.indexOf('.') + 1);
    for (const other of readdirSync(cacheDir)) if (other !== mine && other.startsWith(prefix)) rmSync(path.join(cacheDir, other), { force: true });
  } catch {
    // A read-only or full disk: the next start compiles, as it would without a cache.
  }
}
