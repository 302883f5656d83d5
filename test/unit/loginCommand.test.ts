// What a terminal sign-in runs (runtime/loginCommand.ts): the agent's own command line with the
// method's args and env (ACP §6), or the older `_meta["terminal-auth"]` command, which runs
// unasked only when it is the agent's own program.
import test from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AuthMethodSchema, legacyTerminalAuth } from '../../src/protocol';
import { loginCommand, sameExecutable } from '../../src/runtime/loginCommand';

const launched = { command: '/opt/agent/bin/agent', args: ['acp', '--verbose'], cwd: '/work', env: { PATH: '/usr/bin', SHARED: 'launch', KEY: 'stored' } };
const method = (raw: unknown) => AuthMethodSchema.parse(raw);

test('a terminal method: the launch command line with its args added and its env laid over (the method wins)', () => {
  const login = loginCommand(method({ type: 'terminal', id: 't', name: 'Log in', args: ['login', '--device'], env: { SHARED: 'method', TOKEN: 'x' } }), launched);
  assert.deepEqual(login, {
    command: '/opt/agent/bin/agent',
    args: ['acp', '--verbose', 'login', '--device'],
    env: { PATH: '/usr/bin', SHARED: 'method', KEY: 'stored', TOKEN: 'x' },
    cwd: '/work',
    methodEnv: { SHARED: 'method', TOKEN: 'x' },
    needsConsent: false,
  });
  // null args and env read as none (x-deserialize-default-on-null).
  assert.deepEqual(loginCommand(method({ type: 'terminal', id: 't', name: 'Log in', args: null, env: null }), launched)?.args, ['acp', '--verbose']);
});

test('the older _meta form: the command it names, with the launch env and cwd; a terminal method’s own shape wins over its _meta', () => {
  const legacy = method({ id: 'claude-login', name: 'Log in', _meta: { 'terminal-auth': { command: '/opt/agent/bin/agent', args: ['/login'], label: 'Login', env: { TOKEN: 'y' } } } });
  assert.deepEqual(loginCommand(legacy, launched), {
    command: '/opt/agent/bin/agent',
    args: ['/login'],
    env: { PATH: '/usr/bin', SHARED: 'launch', KEY: 'stored', TOKEN: 'y' },
    cwd: '/work',
    methodEnv: { TOKEN: 'y' },
    needsConsent: false,
  });
  const both = method({ type: 'terminal', id: 't', name: 'Log in', args: ['--cli'], _meta: { 'terminal-auth': { command: '/usr/bin/node', args: ['x.js'] } } });
  assert.equal(legacyTerminalAuth(both), undefined);
  assert.deepEqual(loginCommand(both, launched)?.args, ['acp', '--verbose', '--cli']);
  // Not a login command: an agent method (authenticate).
  for (const meta of [undefined, { 'terminal-auth': {} }, { 'terminal-auth': { command: '' } }, { 'terminal-auth': 'claude /login' }]) {
    assert.equal(loginCommand(method({ id: 'a', name: 'Agent', _meta: meta }), launched), undefined, JSON.stringify(meta));
  }
});

test('the agent’s own program runs unasked; any other needs the user’s yes, whatever it is called', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-login-'));
  try {
    const bin = path.join(dir, 'bin');
    const real = path.join(dir, 'agent-real');
    writeFileSync(real, '#!/bin/sh\n');
    chmodSync(real, 0o755);
    const other = path.join(dir, 'other');
    writeFileSync(other, '#!/bin/sh\n');
    chmodSync(other, 0o755);
    mkdirSync(bin);
    symlinkSync(real, path.join(bin, 'agent'));
    const spec = { command: 'agent', args: ['acp'], cwd: dir, env: { PATH: bin } };
    assert.equal(sameExecutable('agent', spec), true, 'the same name');
    assert.equal(sameExecutable(real, spec), true, 'the file the name resolves to');
    assert.equal(sameExecutable('./agent-real', spec), true, 'a path against its cwd');
    assert.equal(sameExecutable(other, spec), false);
    assert.equal(sameExecutable('node', spec), false, 'not on its PATH');
    const named = (command: string) => method({ id: 'l', name: 'Log in', _meta: { 'terminal-auth': { command, args: ['login'] } } });
    assert.equal(loginCommand(named(real), spec)?.needsConsent, false);
    assert.equal(loginCommand(named(other), spec)?.needsConsent, true);
    assert.equal(loginCommand(named('/bin/sh'), spec)?.needsConsent, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
