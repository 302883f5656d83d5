// Launch commands for the agents people actually run (their data: presetCatalog.ts), and what to
// do when one does not start. No `vscode` import: the selection logic is unit-tested in plain Node.
import { AgentStartError } from '../agent/startError';
import type { StartFailure } from '../agent/startError';
import { PRESETS } from './presetCatalog';
import type { PresetEntry } from './presetCatalog';

export interface AgentPreset {
  name: string;
  /** Names it had before: what was saved under them still reaches it (presetCatalog.ts). */
  formerNames: readonly string[];
  command: string;
  args: string[];
  /**
   * Other argument lists to try, in order, when the command starts but exits (or fails) during
   * initialize: an older release that does not know the ACP flag yet.
   */
  fallbackArgs?: string[][];
  /** What to install when the command is not found (shown in the panel). */
  install: string;
  /**
   * Started in a directory of ACP Host's own, not the workspace (npx: see npxDirectory.ts). The
   * session's cwd (session/new) is the workspace all the same.
   */
  outsideWorkspace: boolean;
}

/** The `npx` launcher is `npx.cmd` on Windows (spawned through a shell by AgentProcess). */
export function npx(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'npx.cmd' : 'npx';
}

function preset({ name, formerNames = [], launch, install }: PresetEntry, platform: NodeJS.Platform): AgentPreset {
  if ('npx' in launch) {
    // -y: npx would otherwise ask on the agent's stdin whether to install.
    return { name, formerNames, command: npx(platform), args: ['-y', `${launch.npx}@${launch.version}`, ...launch.args], install, outsideWorkspace: true };
  }
  return { name, formerNames, command: launch.command, args: launch.args, fallbackArgs: launch.fallbackArgs, install, outsideWorkspace: false };
}

/** The presets of presetCatalog.ts as launch commands, in the order the agent picker shows them, after the Demo agent. */
export function agentPresets(platform: NodeJS.Platform = process.platform): AgentPreset[] {
  return PRESETS.map((entry) => preset(entry, platform));
}

/**
 * The agent called `name`; a name a preset had before (settings written for an older release)
 * finds the preset, unless an agent still goes by that name.
 */
export function findAgent<T extends { name: string }>(agents: readonly T[], name: string, platform: NodeJS.Platform = process.platform): T | undefined {
  const renamed = agentPresets(platform).find((p) => p.formerNames.includes(name))?.name;
  return agents.find((a) => a.name === name) ?? agents.find((a) => a.name === renamed);
}

/** A command line as a user would type it, for pickers and messages. */
export function commandLine(command: string, args: readonly string[]): string {
  const quote = (s: string) => (s === '' || /[\s"'\\$`]/.test(s) ? JSON.stringify(s) : s);
  return [command, ...args].map(quote).join(' ');
}

/** What to do about a missing command: the preset's install hint, or where custom agents are configured. */
export function notFoundHint(install: string | undefined): string {
  return install ? `To install it: ${install}` : 'Check the command in acpHost.agents or your PATH.';
}

/** Failures after which the next argument list is worth a try: the program ran, but did not speak ACP with these args. */
const RETRYABLE: readonly StartFailure[] = ['exited', 'protocol'];

export function shouldTryFallback(error: unknown): boolean {
  return error instanceof AgentStartError && RETRYABLE.includes(error.failure);
}

/**
 * Starts with `args`, then with each fallback in turn while the failure is retryable (never after
 * 'not-found', 'timeout' or a spawn error: other arguments cannot fix those). The last error is
 * thrown; `onFallback` hears about each retry.
 */
export async function startWithFallback<T>(
  args: readonly string[],
  fallbackArgs: readonly (readonly string[])[],
  start: (args: readonly string[]) => Promise<T>,
  onFallback: (failed: readonly string[], next: readonly string[], error: Error) => void = () => undefined,
): Promise<T> {
  const attempts = [args, ...fallbackArgs];
  for (let i = 0; ; i++) {
    try {
      return await start(attempts[i]);
    } catch (error) {
      const next = attempts[i + 1];
      if (!next || !shouldTryFallback(error)) throw error;
      onFallback(attempts[i], next, error as Error);
    }
  }
}

/** The panel's words for a start failure: a missing command names itself and how to get it, never a bare ENOENT. */
export function startFailureDetail(agentName: string, error: unknown, hint: string | undefined): string {
  if (error instanceof AgentStartError) {
    return error.failure === 'not-found' ? `${error.message}\n${hint ?? notFoundHint(undefined)}` : error.message;
  }
  return `Could not start ${agentName}: ${(error as Error).message}`;
}
