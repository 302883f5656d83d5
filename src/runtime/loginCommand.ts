import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { LaunchSpec } from '../agent/process';
import { acpSchemas } from '../protocol/lazySchemas';
import type { AuthMethod } from '../protocol';
import { resolveCommand } from './mcpServers';

/** A terminal sign-in, ready to run. */
export interface LoginCommand {
  command: string;
  args: string[];
  /** The launch env with the method's laid over: it may hold secrets, never log it. */
  env: Record<string, string>;
  cwd: string;
  /** What the method itself sets (its values are secrets to mask). */
  methodEnv: Record<string, string>;
  /** The agent chose the program, and it is not the agent's own: it runs only once the user said yes. */
  needsConsent: boolean;
}

/**
 * The command of a terminal sign-in (ACP §6), from the command line the agent was started with
 * (`launched`: its program, the args that started it, its cwd and env, stored secrets included):
 * - a `terminal` method runs that same program with the method's `args` added and its `env` laid
 *   over (the method's value wins), in the agent's cwd;
 * - the older `_meta["terminal-auth"]` form names a program of its own, run with the launch env
 *   (the method's laid over) and cwd.
 * Undefined for any other method (those go to `authenticate`).
 *
 * Why the older form may need the user's yes: a `terminal` method can only add arguments to the
 * program the user configured, but `_meta` lets the agent name any program, which ACP Host would
 * then start in a terminal it titles "Sign in: <agent>", where the user types credentials. The
 * agent process could run such a program itself, but not in front of the user under ACP Host's
 * name: a compromised or prompt-injected agent could turn the sign-in terminal into a fake login
 * prompt, or run something the user never chose. So the command runs unasked only when it is the
 * agent's own executable (`ax-code auth login` for an agent started as `ax-code acp`); any other
 * (claude-code-acp names `node` while the user runs `npx`) is shown to the user exactly, in a
 * modal dialog, and runs only on their yes.
 */
export function loginCommand(method: AuthMethod, launched: LaunchSpec): LoginCommand | undefined {
  if (method.type === 'terminal') {
    const methodEnv = method.env ?? {};
    const args = [...launched.args, ...(method.args ?? [])];
    return { command: launched.command, args, env: { ...launched.env, ...methodEnv }, cwd: launched.cwd, methodEnv, needsConsent: false };
  }
  const legacy = acpSchemas().legacyTerminalAuth(method);
  if (!legacy) return undefined;
  return {
    command: legacy.command,
    args: legacy.args,
    env: { ...launched.env, ...legacy.env },
    cwd: launched.cwd,
    methodEnv: legacy.env,
    needsConsent: !sameExecutable(legacy.command, launched),
  };
}

/** `command` is the program the agent was started with: the same name, or the same file found on its PATH (symlinks followed). */
export function sameExecutable(command: string, launched: LaunchSpec): boolean {
  if (command === launched.command) return true;
  const named = executable(command, launched);
  return named !== undefined && named === executable(launched.command, launched);
}

/** The file a command runs, as the agent's launch finds it (a path against its cwd, a bare name on its PATH); undefined when not found. */
function executable(command: string, launched: LaunchSpec): string | undefined {
  const found = /[\\/]/.test(command) ? path.resolve(launched.cwd, command) : resolveCommand(command, launched.env);
  if (found === undefined) return undefined;
  try {
    return realpathSync(found);
  } catch {
    return undefined;
  }
}
