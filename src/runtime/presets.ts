// Built-in launch presets for the agents people actually run, and what to do when one does not
// start. No `vscode` import: the selection logic is unit-tested in plain Node.
import { AgentStartError } from '../agent/launch';
import type { StartFailure } from '../agent/launch';

export interface AgentPreset {
  name: string;
  command: string;
  args: string[];
  /**
   * Other argument lists to try, in order, when the command starts but exits (or fails) during
   * initialize: an older release that does not know the ACP flag yet.
   */
  fallbackArgs?: string[][];
  /** What to install when the command is not found (shown in the panel). */
  install: string;
}

/** The `npx` launcher is `npx.cmd` on Windows (spawned through a shell by AgentProcess). */
function npx(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'npx.cmd' : 'npx';
}

/** In the order the agent picker shows them, after the Demo agent. */
export function agentPresets(platform: NodeJS.Platform = process.platform): AgentPreset[] {
  return [
    {
      name: 'Claude Code',
      command: npx(platform),
      args: ['-y', '@zed-industries/claude-code-acp'],
      install:
        'Install Node.js 20+ (npx runs @zed-industries/claude-code-acp) and sign in to Claude Code. ' +
        'For the newer adapter, add { "name": "Claude Code", "command": "npx", "args": ["-y", "@zed-industries/claude-agent-acp"] } to acpHost.agents.',
    },
    {
      name: 'Codex',
      command: npx(platform),
      args: ['-y', '@zed-industries/codex-acp'],
      install: 'Install Node.js 20+ (npx runs @zed-industries/codex-acp); see https://github.com/zed-industries/codex-acp',
    },
    {
      name: 'Gemini CLI',
      command: 'gemini',
      args: ['--acp'],
      fallbackArgs: [['--experimental-acp']],
      install: 'npm install -g @google/gemini-cli (see https://github.com/google-gemini/gemini-cli)',
    },
    {
      name: 'opencode',
      command: 'opencode',
      args: ['acp'],
      install: 'npm install -g opencode-ai (see https://opencode.ai/docs)',
    },
    {
      name: 'GitHub Copilot CLI',
      command: npx(platform),
      args: ['-y', '@github/copilot', '--acp'],
      install: 'Install Node.js 22+ (npx runs @github/copilot) and sign in with a Copilot subscription; see https://docs.github.com/copilot/how-tos/use-copilot-agents/use-copilot-cli',
    },
    {
      name: 'goose',
      command: 'goose',
      args: ['acp'],
      install: 'Install the goose CLI: see https://block.github.io/goose/docs/getting-started/installation',
    },
    {
      name: 'Qwen Code',
      command: 'qwen',
      args: ['--acp'],
      install: 'npm install -g @qwen-code/qwen-code (see https://github.com/QwenLM/qwen-code)',
    },
  ];
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
