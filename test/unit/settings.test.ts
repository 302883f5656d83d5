// The acpHost.* settings as the extension reads them (src/host/config/settingValues.ts): the
// defaults are package.json's, and what VS Code hands over unchecked is parsed to a usable value.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultAgentByOrigin, LIMIT_SETTINGS, limitByOrigin, parseSetting, SETTING_DEFAULTS, SETTING_KEYS } from '../../src/host/config/settingValues';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
const contributed: Record<string, { default: unknown }> = manifest.contributes.configuration.properties;

test('every contributed acpHost.* setting is read, with the manifest’s default, and no other', () => {
  assert.deepEqual(SETTING_KEYS.map((k) => `acpHost.${k}`).sort(), Object.keys(contributed).sort());
  for (const key of SETTING_KEYS) assert.deepEqual(SETTING_DEFAULTS[key], contributed[`acpHost.${key}`].default, key);
});

test('not set: the default', () => {
  for (const key of SETTING_KEYS) assert.deepEqual(parseSetting(key, undefined), SETTING_DEFAULTS[key], key);
});

test('numbers are clamped to the manifest’s minimum of 1; a non-number is the default', () => {
  assert.equal(parseSetting('initializeTimeoutSeconds', 0), 1);
  assert.equal(parseSetting('initializeTimeoutSeconds', -5), 1);
  assert.equal(parseSetting('initializeTimeoutSeconds', 0.5), 1);
  assert.equal(parseSetting('initializeTimeoutSeconds', 120), 120);
  assert.equal(parseSetting('initializeTimeoutSeconds', '120'), 60);
  assert.equal(parseSetting('initializeTimeoutSeconds', Number.NaN), 60);
  assert.equal(parseSetting('maxMessageMegabytes', 0), 1);
  assert.equal(parseSetting('maxMessageMegabytes', Infinity), 32);
  assert.equal(parseSetting('maxMessageMegabytes', 64), 64);
});

test('a value of the wrong type is the default', () => {
  assert.equal(parseSetting('followAgent', 'false'), true);
  assert.equal(parseSetting('followAgent', false), false);
  assert.equal(parseSetting('environment', 'zsh'), 'loginShell');
  assert.equal(parseSetting('environment', 'inherit'), 'inherit');
  assert.deepEqual(parseSetting('agents', { name: 'x' }), []);
  assert.equal(parseSetting('defaultAgent', 7), 'Demo agent');
});

test('an emptied default agent is the demo agent, not an agent named ""', () => {
  assert.equal(parseSetting('defaultAgent', ''), 'Demo agent');
  assert.equal(parseSetting('defaultAgent', 'Codex'), 'Codex');
});

test('agents and mcpServers keep their entries as written: they are checked (and reported) where they are used', () => {
  const agents = [{ name: 'A', command: 'a' }, { bogus: true }];
  assert.deepEqual(parseSetting('agents', agents), agents);
  // parseMcpServerSettings reports a value that is not an array: it gets it as it is.
  assert.equal(parseSetting('mcpServers', 'nope'), 'nope');
  assert.deepEqual(parseSetting('mcpServers', null), []);
});

describe('limits by origin: a workspace may lower a limit, never raise it', () => {
  test('a workspace value above the user’s (or the default) is ignored; below it, it holds', () => {
    for (const key of LIMIT_SETTINGS) {
      const base = SETTING_DEFAULTS[key];
      assert.equal(limitByOrigin(key, { workspaceValue: base * 100 }), base, `${key}: raised over the default`);
      assert.equal(limitByOrigin(key, { globalValue: base * 2, workspaceValue: base * 100 }), base * 2, `${key}: raised over the user's`);
      assert.equal(limitByOrigin(key, { globalValue: base * 2, workspaceFolderValue: base * 100 }), base * 2, `${key}: a folder's value`);
      assert.equal(limitByOrigin(key, { globalValue: base * 2 }), base * 2, `${key}: the user's own`);
      assert.equal(limitByOrigin(key, { globalValue: 4, workspaceValue: 2 }), 2, `${key}: lowered`);
      assert.equal(limitByOrigin(key, { globalValue: 4, workspaceValue: 3, workspaceFolderValue: 100 }), 3, `${key}: a folder cannot undo its workspace's lowering`);
      assert.equal(limitByOrigin(key, { globalValue: 4, workspaceLanguageValue: 1000, workspaceFolderLanguageValue: 2 }), 2, `${key}: language values only lower`);
      assert.equal(limitByOrigin(key, undefined), base, `${key}: nothing set`);
    }
  });

  test('the workspace’s value is parsed as the user’s is: a wrong type or Infinity is no value; below 1 is 1', () => {
    assert.equal(limitByOrigin('maxMessageMegabytes', { workspaceValue: '1' }), 32);
    assert.equal(limitByOrigin('maxMessageMegabytes', { workspaceValue: Infinity }), 32);
    assert.equal(limitByOrigin('maxMessageMegabytes', { workspaceValue: Number.MAX_VALUE }), 32);
    assert.equal(limitByOrigin('maxMessageMegabytes', { workspaceValue: 0 }), 1);
    assert.equal(limitByOrigin('maxMessageMegabytes', { globalValue: 'lots', workspaceValue: 64 }), 32);
  });

  test('the four limits of issue 32 and the terminal cap are read by origin', () => {
    assert.deepEqual([...LIMIT_SETTINGS].sort(), ['checkpoints.maxMegabytes', 'maxMessageMegabytes', 'maxTerminalsPerSession', 'readTextFileLimitMegabytes', 'terminalOutputLimitMegabytes']);
    assert.equal(parseSetting('maxTerminalsPerSession', 2.7), 2);
    assert.equal(parseSetting('maxTerminalsPerSession', 0), 1);
  });
});

describe('acpHost.defaultAgent by origin', () => {
  const own = new Set(['Demo agent', 'Claude Agent', 'My agent']);
  const mayPick = (name: string) => own.has(name);

  test('a workspace may suggest an agent the user already runs: the demo agent, a preset, their own', () => {
    assert.equal(defaultAgentByOrigin({ globalValue: 'My agent', workspaceValue: 'Claude Agent' }, mayPick), 'Claude Agent');
    assert.equal(defaultAgentByOrigin({ workspaceFolderValue: 'My agent' }, mayPick), 'My agent');
  });

  test('a workspace never picks an agent it defines (or any name not accepted): the user’s choice, or the demo agent', () => {
    assert.equal(defaultAgentByOrigin({ globalValue: 'My agent', workspaceValue: 'Repo agent' }, mayPick), 'My agent');
    assert.equal(defaultAgentByOrigin({ workspaceValue: 'Repo agent' }, mayPick), 'Demo agent');
    assert.equal(defaultAgentByOrigin({ workspaceValue: 7 }, mayPick), 'Demo agent');
    assert.equal(defaultAgentByOrigin({ globalValue: 'Claude Agent' }, mayPick), 'Claude Agent');
  });
});
