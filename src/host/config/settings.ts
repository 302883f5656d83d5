import vscode = require('vscode');
import { defaultAgentByOrigin, isLimitSetting, limitByOrigin, parseSetting, SETTING_KEYS } from './settingValues';
import type { SettingKey, SettingValues } from './settingValues';
import { GATED_SETTINGS, splitOrigins } from './workspaceProposals';
import type { GatedSetting, Origins } from './workspaceProposals';

const SECTION = 'acpHost';

/** The settings read as VS Code merges them: all but those that decide what runs. */
export type PlainSettingKey = Exclude<SettingKey, GatedSetting>;

const isGated = (key: SettingKey): key is GatedSetting => (GATED_SETTINGS as readonly string[]).includes(key);

/**
 * An acpHost.* setting, typed and with its default. Read when asked, not cached: a value just
 * written (the tests write them, then act) is seen at once, before its change event. A limit is
 * read by origin (a workspace may only lower it: limitByOrigin); acpHost.defaultAgent is the
 * user's own value here (what the panel's choice is compared with), the workspace's suggestion
 * only through defaultAgent().
 */
export function setting<K extends PlainSettingKey>(key: K): SettingValues[K] {
  const configuration = vscode.workspace.getConfiguration(SECTION);
  if (isLimitSetting(key)) return limitByOrigin(key, configuration.inspect(key)) as SettingValues[K];
  if (key === 'defaultAgent') return parseSetting(key, configuration.inspect(key)?.globalValue);
  return parseSetting(key, configuration.get(key));
}

/** The agent a new session starts with: the workspace's suggestion when `mayPick` accepts it (defaultAgentByOrigin), else the user's. */
export function defaultAgent(mayPick: (name: string) => boolean): string {
  return defaultAgentByOrigin(vscode.workspace.getConfiguration(SECTION).inspect('defaultAgent'), mayPick);
}

/**
 * A setting that decides what runs, by who set it (`inspect()`, not `get()`, which would hand
 * over a workspace's value as if it were the user's): the workspace's waits for consent.
 */
export function settingOrigins(key: GatedSetting): Origins {
  return splitOrigins(vscode.workspace.getConfiguration(SECTION).inspect(key));
}

/** The settings the extension writes itself: the panel's follow toggle, and the agent last chosen. */
type WrittenSetting = 'followAgent' | 'defaultAgent';

/** Written to the user's settings: a choice made in the panel holds in every workspace. */
export function updateSetting<K extends WrittenSetting>(key: K, value: SettingValues[K]): Thenable<void> {
  return vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
}

/** Change events of the acpHost.* settings: one configuration watcher, whatever the number of listeners. */
export class SettingChanges implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ReadonlySet<SettingKey>>();
  private readonly watch = vscode.workspace.onDidChangeConfiguration((event) => {
    const keys = SETTING_KEYS.filter((key) => event.affectsConfiguration(`${SECTION}.${key}`));
    if (keys.length > 0) this.changed.fire(new Set(keys));
  });

  /** `listener` gets the new value of acpHost.`key` whenever it changes, until the result is disposed. */
  onDidChange<K extends PlainSettingKey>(key: K, listener: (value: SettingValues[K]) => void): vscode.Disposable;
  /** A setting that decides what runs changed (read it by origin: settingOrigins). */
  onDidChange(key: GatedSetting, listener: () => void): vscode.Disposable;
  onDidChange(key: SettingKey, listener: (value?: unknown) => void): vscode.Disposable {
    return this.changed.event((keys) => {
      if (keys.has(key)) listener(isGated(key) ? undefined : setting(key));
    });
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
  }
}
