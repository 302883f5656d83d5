import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Where npx-launched presets start. `npx` (npm exec) runs a package from the project around its
 * working directory when that project has one that fits (its node_modules), and reads that
 * project's .npmrc (which may name another registry): started in the workspace, a cloned folder
 * would decide what runs. So they start in a directory of ACP Host's own (in the extension's
 * global storage), which an empty package.json makes a project root, so that no folder above it
 * (a home directory with its own package.json) is taken for the project instead. The session's
 * cwd, in session/new, is the workspace all the same.
 */
export function npxDirectory(storageRoot: string): string {
  const dir = path.join(storageRoot, 'npx');
  mkdirSync(dir, { recursive: true });
  const manifest = { name: 'acp-host-npx', private: true, description: 'Where ACP Host runs npx for agent presets: nothing is installed here.' };
  // `wx`: written once; a later start finds it in place.
  try {
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return dir;
}
