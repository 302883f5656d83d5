import * as vscode from 'vscode';
import { parseSetting, SETTING_KEYS } from './settingValues';
import type { SettingKey, SettingValues } from './settingValues';

const SECTION = 'acpHost';

/**
 * An acpHost.* setting, typed and with its default. Read when asked, not cached: a value just
 * written (the tests write them, then act) is seen at once, before its change event.
 */
export function setting<K extends SettingKey>(key: K): SettingValues[K] {
  return parseSetting(key, vscode.workspace.getConfiguration(SECTION).get(key));
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
  onDidChange<K extends SettingKey>(key: K, listener: (value: SettingValues[K]) => void): vscode.Disposable {
    return this.changed.event((keys) => {
      if (keys.has(key)) listener(setting(key));
    });
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
  }
}
