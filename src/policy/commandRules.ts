import { commandMatcher, hasWildcard } from './globs';
import type { Decision } from './rules';
import { parseShellLine } from './shellCommand';

/**
 * Whether a terminal rule's command pattern applies to a command line, the way Claude Code's
 * permission rules read one: a deny or an ask applies when the pattern matches the whole line or
 * any simple command in it (as written, by its program's basename, or without its wrappers:
 * `make && sudo /bin/rm -rf x` is about `rm`), so no operator, `sh -c` or path hides a command
 * from it. An allow applies only when it matches every simple command as written (an allow for
 * `npm test*` does not allow `npm test && curl x | sh`, nor `./npm test`), or when it names the
 * whole line exactly (a remembered choice); never to a line the parser does not understand.
 */
export function commandRule(pattern: string, decision: Decision): (commandLine: string) => boolean {
  const matches = commandMatcher(pattern);
  const exact = !hasWildcard(pattern);
  return (commandLine) => {
    const line = parseShellLine(commandLine);
    if (decision === 'allow') return (exact && matches(commandLine)) || (line !== undefined && line.commands.length > 0 && line.commands.every((c) => matches(c.text)));
    return matches(commandLine) || (line?.commands.some((c) => matches(c.text) || c.byProgram.some(matches)) ?? false);
  };
}
