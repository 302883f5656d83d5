/**
 * The acpHost.* settings as the extension uses them, each with its type and default (those of
 * package.json's contributes.configuration: test/unit/settings.test.ts holds them equal). VS Code
 * shows a mistyped value or one below a `minimum` as a warning but still hands it over, so what
 * the user wrote is parsed here: a value of the wrong type falls back to the default. Pure, so
 * the parsing is tested without VS Code (src/host/config/settings.ts reads through it).
 */

/** The built-in agent, and the default of acpHost.defaultAgent. */
export const DEMO_AGENT_NAME = 'Demo agent';

export interface SettingValues {
  /** Entries are checked by parseAgentSettings (agentSettings.ts), which reports each invalid one by name. */
  agents: readonly unknown[];
  defaultAgent: string;
  /** Checked by parseMcpServerSettings, which reports what it ignores (a value that is not an array too). */
  mcpServers: unknown;
  environment: 'loginShell' | 'inherit';
  followAgent: boolean;
  initializeTimeoutSeconds: number;
  maxMessageMegabytes: number;
  /** Checked by the policy's settings reader (host/policy/policySettings.ts), which reports each invalid rule. */
  rules: readonly unknown[];
  protectedPaths: readonly string[];
  /** Per agent name: off | safe | allButProtected, or { mode, alsoSafe: [tool kinds] } (policy/autoApprove.ts parses each; invalid ones read as off). */
  autoApprove: Readonly<Record<string, unknown>>;
  /** What a command an agent runs keeps of its output when the agent sets no outputByteLimit, and the most it keeps whatever the agent sets. */
  terminalOutputLimitMegabytes: number;
  /** fs/read_text_file refuses a file on disk larger than this. */
  readTextFileLimitMegabytes: number;
  /** A notification when a session asks a question (permission, form) while the user looks elsewhere. */
  'notify.waits': boolean;
  /** A notification when a session's turn ends while the user looks elsewhere. */
  'notify.turnEnds': boolean;
  /** What the workspace's checkpoints keep of file contents, together; the oldest go first past it. */
  'checkpoints.maxMegabytes': number;
  /** The terminals (terminal/create) a session may hold at once; one more is refused until one is released. */
  maxTerminalsPerSession: number;
  /** ACP: Browse Agents…'s index. Machine-scoped, and read from the user's settings only (host/registry/registry.ts): a workspace must not decide what gets downloaded and run. */
  registryUrl: string;
}
export type SettingKey = keyof SettingValues;

export const SETTING_DEFAULTS: Readonly<SettingValues> = {
  agents: [],
  defaultAgent: DEMO_AGENT_NAME,
  mcpServers: [],
  environment: 'loginShell',
  followAgent: true,
  initializeTimeoutSeconds: 60,
  maxMessageMegabytes: 32,
  rules: [],
  protectedPaths: [],
  autoApprove: {},
  terminalOutputLimitMegabytes: 1,
  readTextFileLimitMegabytes: 10,
  'notify.waits': true,
  'notify.turnEnds': false,
  'checkpoints.maxMegabytes': 50,
  maxTerminalsPerSession: 16,
  registryUrl: 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json',
};

export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** Each setting's parser: its value, or undefined for the default. */
const PARSERS: { [K in SettingKey]: (raw: unknown) => SettingValues[K] | undefined } = {
  agents: (raw) => (Array.isArray(raw) ? raw : undefined),
  // An emptied field means "the default", not an agent named "".
  defaultAgent: (raw) => (typeof raw === 'string' && raw !== '' ? raw : undefined),
  mcpServers: (raw) => raw ?? undefined,
  environment: (raw) => (raw === 'loginShell' || raw === 'inherit' ? raw : undefined),
  followAgent: (raw) => (typeof raw === 'boolean' ? raw : undefined),
  initializeTimeoutSeconds: atLeastOne,
  maxMessageMegabytes: atLeastOne,
  rules: (raw) => (Array.isArray(raw) ? raw : undefined),
  protectedPaths: (raw) => (Array.isArray(raw) ? raw.filter((g): g is string => typeof g === 'string' && g !== '') : undefined),
  autoApprove: (raw) => (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined),
  terminalOutputLimitMegabytes: atLeastOne,
  readTextFileLimitMegabytes: atLeastOne,
  'notify.waits': (raw) => (typeof raw === 'boolean' ? raw : undefined),
  'notify.turnEnds': (raw) => (typeof raw === 'boolean' ? raw : undefined),
  'checkpoints.maxMegabytes': atLeastOne,
  maxTerminalsPerSession: (raw) => {
    const value = atLeastOne(raw);
    return value === undefined ? undefined : Math.floor(value);
  },
  registryUrl: (raw) => (typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined),
};

/** The manifest's `minimum: 1`, which VS Code does not enforce: 0 would time out every start, drop every message, keep no output or refuse every file. */
function atLeastOne(raw: unknown): number | undefined {
  return typeof raw === 'number' && Number.isFinite(raw) ? Math.max(1, raw) : undefined;
}

/** What the extension makes of acpHost.`key` set to `raw` (undefined: not set). */
export function parseSetting<K extends SettingKey>(key: K, raw: unknown): SettingValues[K] {
  return PARSERS[key](raw) ?? SETTING_DEFAULTS[key];
}

/**
 * The settings that bound what an agent may use. A cloned folder's settings are data: its value
 * may lower one of these, never raise it past the user's (or the default, when the user set
 * none). So a repository cannot make a session keep unbounded output, read huge files, accept
 * huge messages or hold more terminals by shipping a `.vscode/settings.json`.
 */
export const LIMIT_SETTINGS = ['maxMessageMegabytes', 'terminalOutputLimitMegabytes', 'readTextFileLimitMegabytes', 'checkpoints.maxMegabytes', 'maxTerminalsPerSession'] as const;
export type LimitSetting = (typeof LIMIT_SETTINGS)[number];

export const isLimitSetting = (key: SettingKey): key is LimitSetting => (LIMIT_SETTINGS as readonly string[]).includes(key);

/**
 * A setting's values by who set them: VS Code's `WorkspaceConfiguration.inspect()`. The global
 * value is the user's (in a remote window, the remote's user settings included: those live on
 * the remote machine, not in the folder). The language values apply only to a configuration read
 * for a language, which ACP Host never does; a workspace's language value still only tightens.
 */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  workspaceLanguageValue?: unknown;
  workspaceFolderLanguageValue?: unknown;
}

function workspaceValues(inspected: InspectedSetting | undefined): unknown[] {
  if (!inspected) return [];
  return [inspected.workspaceValue, inspected.workspaceFolderValue, inspected.workspaceLanguageValue, inspected.workspaceFolderLanguageValue];
}

/** A limit as it applies: the user's (or the default), lowered by any valid value of the workspace's, never raised. */
export function limitByOrigin(key: LimitSetting, inspected: InspectedSetting | undefined): number {
  const ceiling = parseSetting(key, inspected?.globalValue);
  const lowered = workspaceValues(inspected)
    .map((raw) => PARSERS[key](raw))
    .filter((value): value is number => value !== undefined);
  return Math.min(ceiling, ...lowered);
}

/**
 * The agent a new session starts with. A workspace may suggest one, and it is taken only when
 * `mayPick` says the name is one the user already runs without asking: the demo agent, a preset,
 * an agent of the user's own settings or installed from the ACP Registry. A workspace never picks
 * an agent it defines itself (even one the user allowed once): that would start its command
 * because the folder was opened. Otherwise the user's choice, or the demo agent.
 */
export function defaultAgentByOrigin(inspected: InspectedSetting | undefined, mayPick: (name: string) => boolean): string {
  const suggested = PARSERS.defaultAgent(inspected?.workspaceFolderValue ?? inspected?.workspaceValue);
  if (suggested !== undefined && mayPick(suggested)) return suggested;
  return parseSetting('defaultAgent', inspected?.globalValue);
}
