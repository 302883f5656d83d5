/** Schemes a link in agent text may open outside VS Code. */
const EXTERNAL_SCHEMES = new Set(['http', 'https', 'mailto']);

export type LinkTarget = { kind: 'external'; href: string } | { kind: 'file'; path: string; line: number | null; isUri: boolean };

/** Two or more letters before the colon: a one-letter "scheme" is a Windows drive (C:\…), i.e. a path. */
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;
/** A POSIX absolute path, or a Windows drive path. Not `//host` nor `\\host`: those are network paths (or, to a browser, a web address). */
const ABSOLUTE_PATH = /^(\/(?![\\/])|[a-z]:[\\/])/i;

/**
 * What a link clicked in agent markdown may open: a web or mail link, or a file (an absolute
 * path or file: URI, with `#L12` or `#12` naming a 1-based line). Undefined for anything else
 * (javascript:, command:, vscode:, data:, relative and network paths…). A path is only ever a
 * file, never a web address. Pure, so it is unit-tested.
 */
export function linkTarget(href: string): LinkTarget | undefined {
  const scheme = SCHEME.exec(href)?.[1]?.toLowerCase();
  if (scheme && EXTERNAL_SCHEMES.has(scheme)) return { kind: 'external', href };
  if (scheme && scheme !== 'file') return undefined;
  const hash = href.indexOf('#');
  const target = hash === -1 ? href : href.slice(0, hash);
  const line = /^L?(\d+)/.exec(hash === -1 ? '' : href.slice(hash + 1))?.[1];
  const lineNumber = line ? Number(line) : null;
  // A file: URI is decoded by the host's URI parser.
  if (scheme) return { kind: 'file', path: target, line: lineNumber, isUri: true };
  // markdown-it percent-encodes what it links (spaces, non-ASCII, and the backslashes of C:\…).
  const path = decodePath(target);
  if (!ABSOLUTE_PATH.test(path)) return undefined;
  return { kind: 'file', path, line: lineNumber, isUri: false };
}

function decodePath(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray `%` (not markdown-it's): the path as written
  }
}
