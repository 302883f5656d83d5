// A session's life in the real extension host, where it can strand a user: a session brought back
// after a window reload that the agent no longer knows (test/fixtures/agents/reattach-agent.js,
// answering as the ACP SDK does: -32603 "Internal error", the reason in data.details), and a tab
// closed mid-turn while another tab keeps the agent's process (test/fixtures/agents/turns-agent.js
// with session/close). The reload is simulated as the sessions suite does it: the tab closes (its
// transcript and id kept in the store, its process gone) and opens again from the store with its
// saved id; a real window reload cannot run inside the suite.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, closeSessionsAndAgents, find, until, useAgent } from './helpers';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');
const config = () => vscode.workspace.getConfiguration('acpHost');

interface Logged {
  pid: number;
  method?: string;
  wrong?: string;
  params?: { sessionId?: string; prompt?: unknown };
}
const requests = (stateDir: string): Logged[] =>
  fs.readFileSync(path.join(stateDir, 'requests.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Logged);

suite('dead sessions', function () {
  this.timeout(60000);
  const forgetful = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-dead-'));
  const turns = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-close-'));

  setup(async () => {
    const node = { command: process.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } };
    await config().update(
      'agents',
      [
        { ...node, name: 'Forgetful', args: [path.join(FIXTURES, 'reattach-agent.js')], env: { ...node.env, FAKE_STATE_DIR: forgetful, FAKE_FORGOTTEN: 'sdk' } },
        { ...node, name: 'Turns', args: [path.join(FIXTURES, 'turns-agent.js')], env: { ...node.env, FAKE_STATE_DIR: turns, FAKE_CLOSE: '1' } },
      ],
      vscode.ConfigurationTarget.Global,
    );
  });

  teardown(closeSessionsAndAgents);

  test('after a reload, a prompt to a session the agent forgot (SDK-style -32603) is answered in a new session: typed once, attachment and all', async () => {
    const { host } = await api();
    const before = await useAgent('Forgetful');
    await before.prompt('before the reload');
    const sessionId = before.agentSessionId!;
    await host.closeSession(host.tabs.all.find((t) => t.controller === before)!.key);
    fs.rmSync(path.join(forgetful, 'known.json')); // the agent's new process does not know it
    await host.openSession({ agentName: 'Forgetful', sessionId, title: 'before the reload' });
    const back = host.controller;
    assert.notStrictEqual(back, before);

    const file = vscode.Uri.file(path.join(FIXTURES, 'reattach-agent.js'));
    assert.strictEqual(back.attach({ kind: 'file', uri: file.toString(), name: 'reattach-agent.js', path: 'reattach-agent.js' }), undefined);
    await host.handleIntent({ type: 'prompt', text: 'after the reload' });

    const fresh = back.agentSessionId!;
    assert.notStrictEqual(fresh, sessionId, 'a new session');
    const log = requests(forgetful);
    const second = log.filter((r) => r.pid === log.at(-1)!.pid);
    assert.deepStrictEqual(
      second.map((r) => `${r.method ?? `WRONG ${r.wrong}`} ${r.params?.sessionId ?? ''}`.trim()),
      ['initialize', `session/prompt ${sessionId}`, 'session/new', `session/prompt ${fresh}`],
    );
    assert.deepStrictEqual(second[3].params?.prompt, second[1].params?.prompt, 'the same prompt, resent');
    assert.ok(JSON.stringify(second[3].params?.prompt).includes(file.toString()), 'with its attachment');
    assert.deepStrictEqual(
      find(back, 'user').map((e) => e.text),
      ['before the reload', 'after the reload'],
      'typed once, shown once',
    );
    assert.strictEqual(find(back, 'agent').at(-1)?.text, 'after the reload');
    const said = find(back, 'error').map((e) => e.message);
    assert.strictEqual(said.length, 1);
    assert.match(said[0], /^Forgetful did not take this prompt in the session it had before \(Internal error: Session not found\): a new session was opened/);
  });

  test('closing a tab mid-turn while another tab keeps the process: session/cancel, then session/close, and the other tab goes on', async () => {
    const { host } = await api();
    const closing = await useAgent('Turns');
    const closingKey = host.tabs.all.find((t) => t.controller === closing)!.key;
    await host.handleIntent({ type: 'newSession' });
    const staying = host.controller;
    assert.strictEqual(staying.runtime.current?.process.pid, closing.runtime.current?.process.pid, 'one process');
    await host.handleIntent({ type: 'switchSession', key: closingKey });
    void closing.prompt('long');
    await until('the running tool call', () => (find(closing, 'tool').some((t) => t.status === 'in_progress') ? true : undefined));
    const sessionId = closing.agentSessionId;

    await host.closeSession(closingKey);
    const toIt = () => requests(turns).filter((r) => r.params?.sessionId === sessionId).map((r) => r.method);
    await until('session/close', () => (toIt().includes('session/close') ? true : undefined));
    assert.deepStrictEqual(toIt(), ['session/prompt', 'session/cancel', 'session/close']);
    assert.ok(staying.runtime.current, 'the process lives on');
    await staying.prompt('still here');
    assert.strictEqual(find(staying, 'agent').at(-1)?.text, 'still here');
  });
});
