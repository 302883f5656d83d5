let engine: typeof import('./globEngine') | undefined;

/**
 * picomatch, loaded when a glob is first matched: the policy is built at activation, but nothing
 * is matched before an agent asks for something, and picomatch is a twentieth of the extension's
 * bundle. It is bundled apart (dist/globEngine.js, beside dist/main.js; out/…/globEngine.js under tsc).
 */
function picomatch(): typeof import('./globEngine').picomatch {
  engine ??= require(`${__dirname}/globEngine.js`) as typeof import('./globEngine');
  return engine.picomatch;
}

/**
 * One matcher per set of globs, compiled at its first use: paths are `/`-separated whatever the
 * platform (the host turns them so), compared case-insensitively, dot files included.
 */
export function globMatcher(globs: readonly string[]): (path: string) => string | undefined {
  let compiled: { glob: string; test: (path: string) => boolean }[] | undefined;
  return (path) => {
    compiled ??= globs.map((glob) => ({ glob, test: picomatch()(glob, { nocase: true, dot: true }) }));
    return compiled.find((c) => c.test(path))?.glob;
  };
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
