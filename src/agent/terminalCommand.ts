import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Env } from './environment';
import { NOT_SEARCHED, resolveExecutable } from './executables';

/** What a terminal/create asks to run. */
export interface TerminalCommand {
  command: string;
  args?: string[];
}

/**
 * Characters that only mean something to a shell. Agents send a whole shell line in `command`
 * (`npm test 2>&1 | tail -5`) with no args; a bare program name or path is spawned directly.
 */
const SHELL_SYNTAX = /[\s|&;<>()$`\\"'*?[\]{}~#=%!^]/;

/** How a request is run: a shell line through the user's shell, or the program itself. */
export function commandLine(request: TerminalCommand, env: Env, platform: NodeJS.Platform = process.platform): { file: string; args: string[]; shell: boolean } {
  const args = request.args ?? [];
  const { command } = request;
  const windows = platform === 'win32';
  const wholeLine = args.length === 0 && SHELL_SYNTAX.test(command) && !(path.isAbsolute(command) && existsSync(command));
  if (!wholeLine) return { file: command, args, shell: false };
  if (windows) return { file: env.ComSpec || env.COMSPEC || 'cmd.exe', args: ['/d', '/s', '/c', `"${command}"`], shell: true };
  return { file: env.SHELL || '/bin/sh', args: ['-c', command], shell: true };
}

/** What a terminal spawns: the program or the shell by absolute path, or why it cannot. */
export type TerminalProgram = { file: string; args: string[]; shell: boolean } | { notFound: string };

/**
 * How a request is run (commandLine), with the program resolved first (agent/executables.ts):
 * a shell line runs in the user's shell found outside the workspace, a program found the same
 * way, a relative path with a slash against the command's cwd. `excluded`: the workspace's folders.
 */
export function terminalProgram(request: TerminalCommand, env: Env, cwd: string, excluded: readonly string[], platform: NodeJS.Platform = process.platform): TerminalProgram {
  const line = commandLine(request, env, platform);
  const file = resolveExecutable(line.file, { env, cwd, excluded, platform });
  if (file === undefined) return { notFound: `Could not start ${line.file}: it was not found on PATH (${NOT_SEARCHED})` };
  return { ...line, file };
}
