// What the @-mention QuickPick offers, from the workspace's file list: every file, and every
// folder that holds one (folders are derived from the paths, so an excluded or empty folder is
// never offered). Pure, so the ordering and the exclusion rules are unit-tested without VS Code.

export interface MentionCandidate {
  kind: 'file' | 'folder';
  uri: string;
  /** Workspace-relative, `/`-separated (in a multi-root workspace it starts with the folder's name). */
  path: string;
  name: string;
  /** The relative folder it is in ('' at the top). */
  parent: string;
}

export interface WorkspaceFile {
  uri: string;
  /** As `workspace.asRelativePath` gives it. */
  path: string;
}

/**
 * The `search.exclude` entries set to true that name a folder or file anywhere (`**` then `/node_modules`), as names. Other
 * glob forms are left to `files.exclude`, which findFiles applies itself.
 */
export function excludedSegments(searchExclude: Record<string, unknown> | undefined): Set<string> {
  const names = new Set<string>();
  for (const [glob, on] of Object.entries(searchExclude ?? {})) {
    const match = /^\*\*\/([^*?{}[\]/]+)(?:\/\*\*)?$/.exec(glob);
    if (on === true && match) names.add(match[1]);
  }
  return names;
}

/**
 * Files first (those open in an editor at the top, then by path), then folders by path.
 * `open` holds the URIs of open documents.
 */
export function mentionCandidates(files: readonly WorkspaceFile[], excluded: ReadonlySet<string>, open: ReadonlySet<string> = new Set()): MentionCandidate[] {
  const kept = files.filter((f) => !f.path.split('/').some((segment) => excluded.has(segment)));
  const folders = new Map<string, MentionCandidate>();
  const fileItems: MentionCandidate[] = [];
  for (const file of kept) {
    const segments = file.path.split('/');
    fileItems.push({ kind: 'file', uri: file.uri, path: file.path, name: segments.at(-1)!, parent: segments.slice(0, -1).join('/') });
    // Each ancestor folder's URI is the file's URI cut at as many `/` from its end.
    let uri = file.uri;
    for (let depth = segments.length - 1; depth >= 1; depth--) {
      uri = uri.slice(0, uri.lastIndexOf('/'));
      const path = segments.slice(0, depth).join('/');
      if (folders.has(path)) break; // its ancestors are in already
      folders.set(path, { kind: 'folder', uri, path, name: segments[depth - 1], parent: segments.slice(0, depth - 1).join('/') });
    }
  }
  const byPath = (a: MentionCandidate, b: MentionCandidate) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  fileItems.sort((a, b) => Number(open.has(b.uri)) - Number(open.has(a.uri)) || byPath(a, b));
  return [...fileItems, ...[...folders.values()].sort(byPath)];
}
