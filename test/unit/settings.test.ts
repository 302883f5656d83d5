// The acpHost.* settings as the extension reads them (src/host/config/settingValues.ts): the
// defaults are package.json's, and what VS Code hands over unchecked is parsed to a usable value.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseSetting, SETTING_DEFAULTS, SETTING_KEYS } from '../../src/host/config/settingValues';

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
