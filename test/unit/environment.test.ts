// The login-shell environment: parsing `env -0` framed by markers out of a chatty shell's
// output, and asking a (fake) login shell for its variables, with the fallback when that fails.
import test, { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { currentEnv, isHostInternal, parseEnvOutput, resolveLoginShellEnv, withoutHostInternals } from '../../src/agent/environment';
import type { Env } from '../../src/agent/environment';

/** No test may hang the run (node:test has no default timeout). */
const TIMEOUT = { timeout: 20_000 };

const MARK = '__ACP_HOST_ENV__';
const framed = (entries: string[], before = '', after = '') => `${before}${MARK}${entries.map((e) => `${e}\0`).join('')}${MARK}${after}`;

describe('parseEnvOutput', () => {
  test('reads the variables between the markers, ignoring banners before and after', TIMEOUT, () => {
    const output = framed(
      ['HOME=/home/me', 'PATH=/home/me/.nvm/versions/node/v22/bin:/usr/bin'],
      'Last login: Mon Jan  1 on ttys000\nWelcome to fish, the friendly interactive shell\nNOT_A_VAR=banner\n',
      '\nlogout\nSaving session...\n',
    );
    assert.deepEqual(parseEnvOutput(output), { HOME: '/home/me', PATH: '/home/me/.nvm/versions/node/v22/bin:/usr/bin' });
  });

  test("values may contain '=' and newlines", TIMEOUT, () => {
    const output = framed(['OPTS=--a=1 --b=2', 'MULTI=first line\nsecond line\n', 'EMPTY=', 'X==']);
    assert.deepEqual(parseEnvOutput(output), { OPTS: '--a=1 --b=2', MULTI: 'first line\nsecond line\n', EMPTY: '', X: '=' });
  });

  test('a banner that prints escape sequences and NULs outside the markers does not leak in', TIMEOUT, () => {
    const output = framed(['A=1'], '\x1b]0;title\x07\0junk=1\0', '\0more=2\0');
    assert.deepEqual(parseEnvOutput(output), { A: '1' });
  });

  test('entries without a name (no "=", or "=" first) are skipped', TIMEOUT, () => {
    assert.deepEqual(parseEnvOutput(framed(['garbage', '=nameless', 'OK=yes'])), { OK: 'yes' });
  });

  test('no markers, one marker, or nothing between them gives undefined', TIMEOUT, () => {
    assert.equal(parseEnvOutput('HOME=/home/me\0PATH=/usr/bin\0'), undefined);
    assert.equal(parseEnvOutput(`banner ${MARK}HOME=/home/me\0`), undefined);
    assert.equal(parseEnvOutput(`${MARK}${MARK}`), undefined);
    assert.equal(parseEnvOutput(''), undefined);
  });
});

describe("the extension host's internals", () => {
  // What the Electron extension host (and code-server's) has in its environment for itself.
  const INTERNAL = [
    'ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ASAR', 'ELECTRON_NO_ATTACH_CONSOLE', 'VSCODE_IPC_HOOK', 'VSCODE_IPC_HOOK_CLI',
    'VSCODE_IPC_HOOK_EXTHOST', 'VSCODE_PID', 'VSCODE_CWD', 'VSCODE_NLS_CONFIG', 'VSCODE_ESM_ENTRYPOINT',
    'VSCODE_HANDLES_UNCAUGHT_ERRORS', 'VSCODE_HANDLES_SIGPIPE', 'VSCODE_CRASH_REPORTER_PROCESS_TYPE', 'VSCODE_PARENT_PID',
    'VSCODE_CODE_CACHE_PATH', 'VSCODE_L10N_BUNDLE_LOCATION', 'VSCODE_AGENT_FOLDER', 'VSCODE_EXTHOST_WILL_SEND_SOCKET',
    'VSCODE_PORTABLE_EXTRA', 'SNAP', 'SNAP_NAME', 'SNAP_REVISION', 'GDK_PIXBUF_MODULE_FILE', 'CODE_SERVER_PARENT_PID',
  ];
  // The user's, even where a name looks alike; the few VSCODE_* that VS Code leaves to shells.
  const USERS = ['PATH', 'HOME', 'NODE_OPTIONS', 'ELECTRON', 'SNAPSHOT_DIR', 'MY_VSCODE_PID', 'VSCODE', 'VSCODE_PORTABLE', 'VSCODE_SHELL_LOGIN', 'VSCODE_ENV_APPEND', 'ANTHROPIC_API_KEY'];

  test('are told from the user\'s variables by name', TIMEOUT, () => {
    assert.deepEqual(INTERNAL.filter((name) => !isHostInternal(name)), []);
    assert.deepEqual(USERS.filter(isHostInternal), []);
  });

  test('withoutHostInternals keeps every other variable and its value', TIMEOUT, () => {
    const env = Object.fromEntries([...INTERNAL, ...USERS].map((name) => [name, `value of ${name}`]));
    assert.deepEqual(withoutHostInternals(env), Object.fromEntries(USERS.map((name) => [name, `value of ${name}`])));
  });

  test('currentEnv (what agents, terminals and MCP servers start from) has none of them', TIMEOUT, () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { ELECTRON_RUN_AS_NODE: '1', VSCODE_IPC_HOOK_CLI: '/tmp/vscode-ipc.sock', ACP_TEST_KEEP: 'kept' });
      const env = currentEnv();
      assert.equal('ELECTRON_RUN_AS_NODE' in env, false);
      assert.equal('VSCODE_IPC_HOOK_CLI' in env, false);
      assert.equal(env.ACP_TEST_KEEP, 'kept');
    } finally {
      for (const name of ['ELECTRON_RUN_AS_NODE', 'VSCODE_IPC_HOOK_CLI', 'ACP_TEST_KEEP']) {
        if (name in saved) process.env[name] = saved[name];
        else delete process.env[name];
      }
    }
  });
});

describe('resolveLoginShellEnv', () => {
  let dir: string;
  /** Writes an executable sh script named `name` into the temp dir. */
  const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const base = (shell: string | undefined): Env => {
    const env: Env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), KEEP_ME: 'base value', FAKE_LOGIN_VAR: 'from the base' };
    if (shell !== undefined) env.SHELL = shell;
    return env;
  };

  // A login shell with a banner before and after the command it is given with -c.
  const CHATTY_SHELL = `
echo "Last login: Mon Jan  1 00:00:00 on ttys000"
echo "Welcome! (motd with an = sign)"
export FAKE_LOGIN_VAR='from the login shell'
export FAKE_WITH_EQUALS='a=b=c'
export FAKE_MULTILINE='first line
second line'
export FAKE_SHELL_FLAGS="$1 $2"
export FAKE_SAW_MARKER="$ACP_HOST_RESOLVING_ENVIRONMENT"
export SHLVL=7
for arg; do command=$arg; done
/bin/sh -c "$command"
echo "logout"`;

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-env-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("returns the login shell's variables on top of the base env", { ...TIMEOUT, skip: process.platform === 'win32' }, async () => {
    const shell = script('chatty-sh', CHATTY_SHELL);
    const env = await resolveLoginShellEnv(base(shell), 'linux');
    assert.equal(env.FAKE_LOGIN_VAR, 'from the login shell', 'the shell wins over the base');
    assert.equal(env.FAKE_WITH_EQUALS, 'a=b=c');
    assert.equal(env.FAKE_MULTILINE, 'first line\nsecond line');
    assert.equal(env.KEEP_ME, 'base value');
    assert.equal(env.SHELL, shell);
    assert.equal(env.FAKE_SHELL_FLAGS, '-l -c', 'a plain sh is asked for a login shell, not an interactive one');
    assert.equal(env.FAKE_SAW_MARKER, '1', 'rc files can tell they run for ACP Host');
    assert.equal('ACP_HOST_RESOLVING_ENVIRONMENT' in env, false);
    assert.equal('SHLVL' in env, false, "the throwaway shell's SHLVL is dropped");
    assert.equal('PWD' in env, false);
    for (const [key, value] of Object.entries(env)) {
      assert.equal(key.includes('\n') || key.includes(MARK) || value.includes(MARK), false, `banner leaked into ${JSON.stringify(key)}`);
    }
  });

  test("internals the login shell hands back are dropped; the user's variables stay", { ...TIMEOUT, skip: process.platform === 'win32' }, async () => {
    const shell = script('leaky-sh', `export ELECTRON_RUN_AS_NODE=1 VSCODE_IPC_HOOK_CLI=/tmp/ipc.sock VSCODE_PID=42 FAKE_USER_VAR=mine
for arg; do command=$arg; done
/bin/sh -c "$command"`);
    const env = await resolveLoginShellEnv(base(shell), 'linux');
    assert.equal(env.FAKE_USER_VAR, 'mine');
    assert.deepEqual(Object.keys(env).filter(isHostInternal), []);
  });

  test('bash, zsh and fish are also asked for an interactive shell (-i), where nvm is set up', { ...TIMEOUT, skip: process.platform === 'win32' }, async () => {
    const shell = script('fake-bash', CHATTY_SHELL.replace('"$1 $2"', '"$1 $2 $3"'));
    const env = await resolveLoginShellEnv(base(shell), 'linux');
    assert.equal(env.FAKE_SHELL_FLAGS, '-i -l -c');
    assert.equal(env.FAKE_LOGIN_VAR, 'from the login shell');
  });

  test('a shell that does not exist: the base env, unchanged', TIMEOUT, async () => {
    const input = base(path.join(os.tmpdir(), 'acp-host-no-such-shell'));
    assert.deepEqual(await resolveLoginShellEnv({ ...input }, 'linux'), input);
  });

  test('a shell that fails without printing the environment: the base env', { ...TIMEOUT, skip: process.platform === 'win32' }, async () => {
    const shell = script('broken-sh', 'echo "rc file error: syntax error near line 3" >&2\necho "half a banner"\nexit 1');
    const input = base(shell);
    assert.deepEqual(await resolveLoginShellEnv({ ...input }, 'linux'), input);
  });

  test('a shell that prints only the first marker (killed halfway): the base env', { ...TIMEOUT, skip: process.platform === 'win32' }, async () => {
    const shell = script('halfway-sh', `printf '${MARK}HOME=/elsewhere\\0'\nexit 0`);
    const input = base(shell);
    assert.deepEqual(await resolveLoginShellEnv({ ...input }, 'linux'), input);
  });

  test('on Windows the base env is used as it is, without running a shell', TIMEOUT, async () => {
    const input = base(path.join(os.tmpdir(), 'acp-host-no-such-shell'));
    assert.equal(await resolveLoginShellEnv(input, 'win32'), input);
  });
});
