// The agents ACP Host knows by name, as data: presets.ts makes launch commands of it. README
// ("Keeping the presets current") says how these entries are checked and moved to a new version.

/** How a preset is started. */
export type PresetLaunch =
  /** A package run with npx, at exactly this version (never whatever `latest` is that day). */
  | { npx: string; version: string; args: string[] }
  /** A program the user installs, found on PATH (its version is theirs). */
  | { command: string; args: string[]; fallbackArgs?: string[][] };

export interface PresetEntry {
  name: string;
  /**
   * Names this preset had before: settings (acpHost.defaultAgent, an acpHost.agents entry),
   * saved sessions and stored secrets under such a name still reach it (host/config/renamedAgents.ts).
   */
  formerNames?: string[];
  launch: PresetLaunch;
  /**
   * The version last checked with ACP Host, and when (README: "Keeping the presets current"):
   * absent for an agent that could not be checked (goose is not on npm).
   */
  checked?: { version: string; on: string };
  /** What to install when the command is not found (shown in the panel). */
  install: string;
}

/** In the order the agent picker shows them, after the Demo agent. */
export const PRESETS: readonly PresetEntry[] = [
  {
    name: 'Claude Agent',
    // Was @zed-industries/claude-code-acp (frozen at 0.16.2; its sessions outlived the window),
    // renamed @zed-industries/claude-agent-acp, then @agentclientprotocol/claude-agent-acp.
    formerNames: ['Claude Code'],
    launch: { npx: '@agentclientprotocol/claude-agent-acp', version: '0.101.0', args: [] },
    checked: { version: '0.101.0', on: '2026-12-04' },
    install: 'Install Node.js 22+ (npx runs @agentclientprotocol/claude-agent-acp) and sign in to Claude; see https://github.com/agentclientprotocol/claude-agent-acp',
  },
  {
    name: 'Codex',
    // Was @zed-industries/codex-acp (frozen at 0.16.0, which ignores stdin EOF).
    launch: { npx: '@agentclientprotocol/codex-acp', version: '2.6.0', args: [] },
    checked: { version: '2.6.0', on: '2026-12-04' },
    install: 'Install Node.js 22+ (npx runs @agentclientprotocol/codex-acp) and sign in to Codex; see https://github.com/agentclientprotocol/codex-acp',
  },
  {
    name: 'Gemini CLI',
    launch: { command: 'gemini', args: ['--acp'], fallbackArgs: [['--experimental-acp']] },
    checked: { version: '0.61.0', on: '2026-12-04' },
    install: 'npm install -g @google/gemini-cli (see https://github.com/google-gemini/gemini-cli)',
  },
  {
    name: 'opencode',
    launch: { command: 'opencode', args: ['acp'] },
    checked: { version: '1.18.33', on: '2026-12-04' },
    install: 'npm install -g opencode-ai (see https://opencode.ai/docs)',
  },
  {
    name: 'GitHub Copilot CLI',
    launch: { npx: '@github/copilot', version: '1.0.102', args: ['--acp'] },
    checked: { version: '1.0.102', on: '2026-12-04' },
    install: 'Install Node.js 22+ (npx runs @github/copilot) and sign in with a Copilot subscription; see https://docs.github.com/copilot/how-tos/use-copilot-agents/use-copilot-cli',
  },
  {
    name: 'goose',
    launch: { command: 'goose', args: ['acp'] },
    install: 'Install the goose CLI: see https://block.github.io/goose/docs/getting-started/installation',
  },
  {
    name: 'Qwen Code',
    launch: { command: 'qwen', args: ['--acp'] },
    checked: { version: '0.24.4', on: '2026-12-04' },
    install: 'npm install -g @qwen-code/qwen-code (see https://github.com/QwenLM/qwen-code)',
  },
];
