/** Schemes a link in agent text may open outside VS Code. */
const EXTERNAL_SCHEMES = new Set(['http', 'https', 'mailto']);

export type LinkTarget = { kind: 'external'; href: string } | { kind: 'file'; path: string; line: number | null; isUri: boolean };

/**
 * What a link clicked in agent markdown may open: a web or mail link, or a file (an absolute
 * path or file: URI, with `#L12` or `#12` naming a 1-based line). Undefined for anything else
 * (javascript:, command:, vscode:, data:, relative paths…). Pure, so it is unit-tested.
 */
export function linkTarget(href: string): LinkTarget | undefined {
  // A one-letter "scheme" is a Windows drive (C:\…), i.e. a path.
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme && EXTERNAL_SCHEMES.has(scheme)) return { kind: 'external', href };
  if (scheme && scheme !== 'file') return undefined;
  const hash = href.indexOf('#');
  const target = hash === -1 ? href : href.slice(0, hash);
  const line = /^L?(\d+)/.exec(hash === -1 ? '' : href.slice(hash + 1))?.[1];
  if (!scheme && !/^(\/|[a-z]:[\\/])/i.test(target)) return undefined;
  return { kind: 'file', path: target, line: line ? Number(line) : null, isUri: scheme === 'file' };
}
