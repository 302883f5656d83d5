// Secrets bound to the agent's identity (src/runtime/agentIdentity.ts, src/host/auth/secretIndex.ts):
// what makes two definitions the same agent, the keys values are stored under, and where the
// secrets stored by name alone (earlier versions) go.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { launchIdentity } from '../../src/runtime/agentIdentity';
import { legacySecretKey, planMigration, readIndex, readLegacyIndex, secretKey, varsOf, withVar } from '../../src/host/auth/secretIndex';

describe('launch identity', () => {
  test('a built-in agent is the same agent whatever its package or version', () => {
    assert.equal(
      launchIdentity({ kind: 'builtin' }, 'npx', ['-y', '@zed-industries/claude-code-acp']),
      launchIdentity({ kind: 'builtin' }, 'npx', ['-y', '@agentclientprotocol/claude-agent-acp@0.101.0']),
    );
  });

  test('a configured agent is its exact command and args', () => {
    const user = launchIdentity({ kind: 'user' }, 'gemini', ['--acp']);
    assert.equal(user, launchIdentity({ kind: 'user' }, 'gemini', ['--acp']));
    assert.notEqual(user, launchIdentity({ kind: 'user' }, 'gemini', ['--experimental-acp']));
    assert.notEqual(user, launchIdentity({ kind: 'user' }, '/tmp/gemini', ['--acp']));
    assert.notEqual(user, launchIdentity({ kind: 'user' }, 'gemini', ['--acp', '']), 'an empty argument counts');
    assert.notEqual(launchIdentity({ kind: 'user' }, 'a b', []), launchIdentity({ kind: 'user' }, 'a', ['b']), 'no ambiguity in how words are joined');
  });

  test('a workspace’s definition is never the built-in one nor the user’s, even with the same command line, nor another workspace’s', () => {
    const args = ['-y', '@zed-industries/claude-code-acp'];
    const workspace = launchIdentity({ kind: 'workspace', workspace: 'file:///ws/a' }, 'npx', args);
    assert.notEqual(workspace, launchIdentity({ kind: 'builtin' }, 'npx', args));
    assert.notEqual(workspace, launchIdentity({ kind: 'user' }, 'npx', args));
    assert.notEqual(workspace, launchIdentity({ kind: 'workspace', workspace: 'file:///ws/b' }, 'npx', args));
  });
});

describe('secret storage keys and index', () => {
  const builtin = { name: 'Claude Code', identity: launchIdentity({ kind: 'builtin' }, 'npx', []) };
  const workspace = { name: 'Claude Code', identity: launchIdentity({ kind: 'workspace', workspace: 'file:///ws' }, '/bin/sh', ['-c', 'evil']) };

  test('a secret’s key names the agent and its identity: a same-named agent of another identity has other keys', () => {
    assert.notEqual(secretKey(builtin, 'ANTHROPIC_API_KEY'), secretKey(workspace, 'ANTHROPIC_API_KEY'));
    assert.notEqual(secretKey(builtin, 'K'), secretKey({ ...builtin, name: 'Codex' }, 'K'));
    assert.notEqual(secretKey(builtin, 'K'), legacySecretKey('Claude Code', 'K'));
    assert.match(secretKey(builtin, 'K'), /^acpHost\.agentSecret:/);
  });

  test('the index lists variables per agent; a same-named agent of another identity has none', () => {
    let index = withVar([], builtin, 'ANTHROPIC_API_KEY');
    index = withVar(index, builtin, 'ANTHROPIC_API_KEY');
    index = withVar(index, builtin, 'OTHER');
    assert.deepEqual(varsOf(index, builtin), ['ANTHROPIC_API_KEY', 'OTHER']);
    assert.deepEqual(varsOf(index, workspace), []);
    assert.deepEqual(varsOf(index, { name: 'Codex', identity: builtin.identity }), []);
  });

  test('an index that does not parse is empty; entries that do not parse are dropped', () => {
    assert.deepEqual(readIndex(undefined), []);
    assert.deepEqual(readIndex({ 'Claude Code': ['K'] }), [], 'the older shape is not read as the new one');
    assert.deepEqual(readIndex([{ name: 'A', identity: 'i', vars: ['K'] }, { name: 'B', vars: ['K'] }]), [{ name: 'A', identity: 'i', vars: ['K'] }]);
    assert.deepEqual(readLegacyIndex({ A: ['K', 3], B: 'x' }), { A: ['K'] });
  });
});

test('migration: secrets stored by name go to the user’s own agent of that name; those of a name the user has none of are dropped', () => {
  const own: Record<string, string> = { 'Claude Code': 'builtin', Mine: '["command","mine",""]' };
  const plan = planMigration({ 'Claude Code': ['ANTHROPIC_API_KEY'], Mine: ['A', 'B'], 'Workspace only': ['TOKEN'] }, (name) => own[name]);
  assert.deepEqual(plan.moves, [
    { owner: { name: 'Claude Code', identity: 'builtin' }, varName: 'ANTHROPIC_API_KEY' },
    { owner: { name: 'Mine', identity: '["command","mine",""]' }, varName: 'A' },
    { owner: { name: 'Mine', identity: '["command","mine",""]' }, varName: 'B' },
  ]);
  assert.deepEqual(plan.dropped, [{ name: 'Workspace only', varName: 'TOKEN' }]);
});
