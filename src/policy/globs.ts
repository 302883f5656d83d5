import picomatch from 'picomatch/posix';

/**
 * One compiled matcher per set of globs: paths are `/`-separated whatever the platform (the host
 * turns them so), compared case-insensitively, dot files included.
 */
export function globMatcher(globs: readonly string[]): (path: string) => string | undefined {
  const compiled = globs.map((glob) => ({ glob, test: picomatch(glob, { nocase: true, dot: true }) }));
  return (path) => compiled.find((c) => c.test(path))?.glob;
}

/**
 * A command pattern: `*` stands for any run of characters and `\x` for `x` itself; matched
 * against the whole command line, case-sensitively (commands are).
 */
export function commandMatcher(pattern: string): (commandLine: string) => boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') source += '.*';
    else source += (c === '\\' && i + 1 < pattern.length ? pattern[++i] : c).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  const re = new RegExp(`^${source}$`, 's');
  return (commandLine) => re.test(commandLine.trim());
}
