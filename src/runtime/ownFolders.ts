import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { exactPathGlob } from '../policy/rules';

/**
 * The folders that configure VS Code and ACP Host itself, wherever this installation keeps them
 * (a workspace opened on the home folder holds them), as protected globs over the absolute forms
 * the policy judges (the root dropped, `/`-separated: workspace/policyPaths.ts), each folder as
 * given and as it really is, and everything below it.
 */
export function ownFolderGlobs(folders: readonly string[]): string[] {
  const forms = folders.flatMap((folder) => [path.resolve(folder), realOrAsGiven(folder)]);
  return [...new Set(forms)].map((absolute) => `${exactPathGlob(absolute.slice(path.parse(absolute).root.length).split(path.sep).join('/'))}/**`);
}

function realOrAsGiven(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder); // not created yet
  }
}
