import * as path from 'node:path';
import { globMatcher } from '../../../policy/globs';
import { isInside } from '../../../workspace/pathPolicy';

/**
 * The files the content cache's seed found (findFiles), kept as evidence of what did NOT exist
 * then (VS Code-free: unit-tested). A watcher's "created" is no proof: an agent that writes a
 * file atomically (a temporary file renamed over it) is reported as creating it. So a file the
 * cache never held was absent only if the listing would have found it: the listing was not cut
 * short, the file lies in a folder it searched, no exclude glob hides it, and it is not listed.
 * Anything else is unknown, and a restore leaves it alone.
 */
export class SeedListing {
  private readonly excluded: (relative: string) => string | undefined;

  constructor(
    private readonly roots: readonly string[],
    private readonly paths: ReadonlySet<string>,
    /** False when the listing stopped at its maximum: a file it lacks may still have existed. */
    private readonly complete: boolean,
    excludes: readonly string[],
  ) {
    this.excluded = globMatcher(excludes);
  }

  /** Whether `fsPath` surely did not exist when the listing was made. */
  absent(fsPath: string): boolean {
    if (!this.complete || this.paths.has(fsPath)) return false;
    const root = this.roots.find((r) => isInside(r, fsPath));
    if (root === undefined) return false;
    const parts = path.relative(root, fsPath).split(path.sep);
    // An exclude glob names files and folders: a folder it matches hides everything below.
    for (let i = 1; i <= parts.length; i++) if (this.excluded(parts.slice(0, i).join('/')) !== undefined) return false;
    return true;
  }
}
