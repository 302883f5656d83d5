// The bundled demo agent (dist/demo-agent.js, made by `npm run build`) driven over its real
// stdio: every message it writes must be valid against the official ACP v1 schema, and the
// features it exists to show (config options mirroring the modes, a titled session, usage, a
// console-output tool call, a permission) must be on the wire the way a client expects them.
import test, { after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { specMessageErrors } from './helpers/officialSchema';

const DEMO = path.resolve(__dirname, '../../../dist/demo-agent.js');
const SLOW = { timeout: 30_000 };
const WAIT_MS = 10_000;

type Message = Record<string, any>;

/** A bare ACP client on the demo's stdio that keeps every line, both ways, for the schema check. */
class DemoClient {
  readonly fromAgent: Message[] = [];
  readonly toAgent: Message[] = [];
  /** Our request ids → method, to check the agent's responses against the right result type. */
  private readonly ourRequests = new Map<number, string>();
  /** Ids of requests this test sends wrong on purpose, left out of our own schema check. */
  private readonly wrongOnPurpose = new Set<number>();
  private readonly waiters = new Set<() => void>();
  private readonly child: ChildProcessWithoutNullStreams;
  private nextId = 1;
  private buffered = '';
  stderr = '';

  constructor(
    cwd: string,
    /** Answers the agent's requests (fs, permission); undefined leaves one unanswered. */
    private readonly serve: (request: Message) => unknown,
  ) {
    this.child = spawn(process.execPath, [DEMO], { cwd, env: { ...process.env, ACP_DEMO_DELAY_MS: '0' } });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let nl = this.buffered.indexOf('\n'); nl !== -1; nl = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      const message = JSON.parse(line) as Message;
      this.fromAgent.push(message);
      if (typeof message.method === 'string' && 'id' in message) {
        const result = this.serve(message);
        if (result !== undefined) this.send({ jsonrpc: '2.0', id: message.id, result });
      }
    }
    for (const wake of [...this.waiters]) wake();
  }

  send(message: Message): void {
    this.toAgent.push(message);
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends a request; resolves with the whole response message (result or error). */
  async request(method: string, params: unknown, { wrongOnPurpose = false } = {}): Promise<Message> {
    const id = this.nextId++;
    this.ourRequests.set(id, method);
    if (wrongOnPurpose) this.wrongOnPurpose.add(id);
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.waitFor(`the response to ${method}`, (m) => m.id === id && !('method' in m));
  }

  async result(method: string, params: unknown): Promise<any> {
    const response = await this.request(method, params);
    assert.ok('result' in response, `${method} failed: ${JSON.stringify(response.error)}`);
    return response.result;
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  waitFor(what: string, match: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.fromAgent.find(match);
        if (found) {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
        }
        return !!found;
      };
      const wake = (): void => void check();
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`timed out waiting for ${what}; stderr:\n${this.stderr}`));
      }, WAIT_MS);
      if (!check()) this.waiters.add(wake);
    });
  }

  /** The session/update payloads of one kind, in order. */
  updates(kind: string, from = 0): Message[] {
    return this.fromAgent
      .slice(from)
      .filter((m) => m.method === 'session/update' && m.params.update.sessionUpdate === kind)
      .map((m) => m.params.update);
  }

  /** Every schema problem in what the agent wrote, one line each. */
  schemaErrors(): string[] {
    return this.fromAgent.flatMap((m) => {
      const requestMethod = 'method' in m ? undefined : this.ourRequests.get(m.id);
      return specMessageErrors(m, { from: 'agent', requestMethod }).map((e) => `${JSON.stringify(m).slice(0, 160)}: ${e}`);
    });
  }

  /** The same for what we wrote, so that a mistake in a test cannot pass for a fault of the demo. */
  ownSchemaErrors(): string[] {
    return this.toAgent
      .filter((m) => !this.wrongOnPurpose.has(m.id))
      .flatMap((m) => {
        const requestMethod = 'method' in m ? undefined : this.fromAgent.find((r) => r.id === m.id && 'method' in r)?.method;
        return specMessageErrors(m, { from: 'client', requestMethod }).map((e) => `${JSON.stringify(m).slice(0, 160)}: ${e}`);
      });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end(); // the demo exits on EOF
    });
  }
}

/** Serves fs and permissions like a client would; `permission` picks the option kind. */
function servingClient(cwd: string, permission: string | undefined = 'allow_once'): DemoClient {
  return new DemoClient(cwd, (request) => {
    const p = request.params;
    switch (request.method) {
      case 'fs/read_text_file':
        return { content: readFileSync(p.path, 'utf8') };
      case 'fs/write_text_file':
        writeFileSync(p.path, p.content);
        return {};
      case 'session/request_permission': {
        if (permission === undefined) return undefined;
        return { outcome: { outcome: 'selected', optionId: p.options.find((o: Message) => o.kind === permission).optionId } };
      }
      default:
        return undefined;
    }
  });
}

const BOOLEAN_CAPS = { fs: { readTextFile: true, writeTextFile: true }, terminal: false, session: { configOptions: { boolean: {} } } };
const CLIENT_INFO = { name: 'acp-host-tests', version: '0.0.0' };

const tmp = mkdtempSync(path.join(os.tmpdir(), 'acp-demo-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function workspace(name: string): string {
  const dir = path.join(tmp, name);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'README.md'), '# Demo workspace\n\nHello.\n');
  writeFileSync(path.join(dir, 'odd ```name.txt'), 'a name with a fence in it\n');
  return dir;
}

function optionById(options: Message[], id: string): Message {
  const option = options.find((o) => o.id === id);
  assert.ok(option, `no config option ${id} in ${JSON.stringify(options)}`);
  return option;
}

describe('the demo agent on the wire', () => {
  test('is built', () => assert.ok(existsSync(DEMO), `${DEMO} is missing: run \`npm run build\` (npm test does)`));

  test('config options, modes, a full turn and a second one: all schema-valid, with the features visible', SLOW, async () => {
    const cwd = workspace('full');
    const client = servingClient(cwd);
    try {
      const init = await client.result('initialize', { protocolVersion: 1, clientCapabilities: BOOLEAN_CAPS, clientInfo: CLIENT_INFO });
      assert.equal(init.protocolVersion, 1);

      const created = await client.result('session/new', { cwd, mcpServers: [] });
      const { sessionId } = created;
      assert.deepEqual(created.modes.availableModes.map((m: Message) => m.id), ['ask', 'code']);
      assert.deepEqual(created.configOptions.map((o: Message) => [o.id, o.type, o.category ?? null]), [
        ['mode', 'select', 'mode'],
        ['model', 'select', 'model'],
        ['verbose', 'boolean', null],
      ]);
      const mode = optionById(created.configOptions, 'mode');
      assert.deepEqual(mode.options.map((o: Message) => o.value), ['ask', 'code'], 'the mode option mirrors the modes');
      assert.equal(mode.currentValue, created.modes.currentModeId);
      const model = optionById(created.configOptions, 'model');
      assert.deepEqual(model.options.map((g: Message) => [g.name, g.options.length]), [['Fast', 2], ['Thorough', 2]]);
      assert.equal(optionById(created.configOptions, 'verbose').currentValue, false);

      // Legacy set_mode: current_mode_update, and config_option_update for the mirrored option.
      let from = client.fromAgent.length;
      assert.deepEqual(await client.result('session/set_mode', { sessionId, modeId: 'code' }), {});
      assert.deepEqual(client.updates('current_mode_update', from).map((u) => u.currentModeId), ['code']);
      const [afterSetMode] = client.updates('config_option_update', from);
      assert.equal(optionById(afterSetMode.configOptions, 'mode').currentValue, 'code');

      // The mode config option moves the legacy mode too.
      from = client.fromAgent.length;
      let set = await client.result('session/set_config_option', { sessionId, configId: 'mode', value: 'ask' });
      assert.equal(optionById(set.configOptions, 'mode').currentValue, 'ask');
      assert.equal(set.configOptions.length, 3, 'the complete set');
      assert.deepEqual(client.updates('current_mode_update', from).map((u) => u.currentModeId), ['ask']);
      set = await client.result('session/set_config_option', { sessionId, configId: 'mode', value: 'code' });
      set = await client.result('session/set_config_option', { sessionId, configId: 'model', value: 'demo-sage' });
      assert.equal(optionById(set.configOptions, 'model').currentValue, 'demo-sage');
      from = client.fromAgent.length;
      set = await client.result('session/set_config_option', { sessionId, configId: 'verbose', type: 'boolean', value: true });
      assert.equal(optionById(set.configOptions, 'verbose').currentValue, true);
      assert.equal(optionById(set.configOptions, 'mode').currentValue, 'code');
      assert.deepEqual(client.updates('current_mode_update', from), [], 'no mode update when the mode did not change');

      // Wrong set_config_option params: -32602, saying what is wrong.
      const bad: Array<[Message, RegExp]> = [
        [{ configId: 'colour', value: 'red' }, /unknown configId "colour".*mode, model, verbose/],
        [{ configId: 'model', value: 'gpt-imaginary' }, /"gpt-imaginary" is not a value of "model".*demo-sage/],
        [{ configId: 'verbose', value: true }, /"verbose" is a boolean option/],
        [{ configId: 'model', type: 'boolean', value: true }, /"model" is a select option/],
        [{ configId: 42, value: 'x' }, /configId must be a string/],
      ];
      for (const [params, message] of bad) {
        const response = await client.request('session/set_config_option', { sessionId, ...params }, { wrongOnPurpose: true });
        assert.equal(response.error?.code, -32602, JSON.stringify(response));
        assert.match(response.error.message, message);
      }
      const unknownSession = await client.request('session/set_config_option', { sessionId: 'nope', configId: 'model', value: 'demo-sage' });
      assert.equal(unknownSession.error?.code, -32002);

      // The demo turn.
      const prompt = 'Please explain what this workspace is about, in detail';
      const turnStart = client.fromAgent.length;
      const answer = await client.result('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] });
      assert.equal(answer.stopReason, 'end_turn');
      const turn = client.fromAgent.slice(turnStart);
      const responseAt = turn.findIndex((m) => m.result?.stopReason);
      assert.equal(responseAt, turn.length - 1, 'nothing of the turn comes after its response');

      const titles = client.updates('session_info_update', turnStart);
      assert.deepEqual(titles.map((u) => u.title), ['Please explain what this workspace is a…']);
      assert.ok(Array.from(titles[0].title as string).length <= 40);

      const usage = client.updates('usage_update', turnStart);
      assert.equal(usage.length, 1);
      assert.equal(usage[0].size, 200_000);
      assert.ok(usage[0].used > 0 && usage[0].used < usage[0].size);
      assert.equal(usage[0].cost.currency, 'USD');
      assert.ok(usage[0].cost.amount > 0);

      const text = client.updates('agent_message_chunk', turnStart).map((u) => u.content.text).join('');
      assert.match(text, /I am in \*\*Code\*\* mode, using Demo Sage/);
      assert.match(text, /> Please explain what this workspace is about/, 'the prompt is quoted');
      assert.match(text, /Verbose replies are on/);
      assert.match(text, /# Demo workspace/, 'the first line of the README read through the client');
      assert.match(text, /3 entries/);

      const calls = client.updates('tool_call', turnStart);
      assert.deepEqual(calls.map((c) => c.kind), ['search', 'read', 'edit']);
      const listId = calls[0].toolCallId;
      const listDone = client.updates('tool_call_update', turnStart).find((u) => u.toolCallId === listId && u.status === 'completed');
      const output = listDone?.content?.[0]?.content?.text as string;
      assert.ok(output.startsWith('````console\n$ ls -p\n'), `the fence outgrows the backticks in a file name: ${output}`);
      assert.ok(output.endsWith('\n````'), output);
      assert.match(output, /README\.md\nodd ```name\.txt\nsrc\//);
      const permissions = turn.filter((m) => m.method === 'session/request_permission');
      assert.equal(permissions.length, 1);
      assert.ok(permissions[0].params.toolCall.toolCallId !== listId, 'the listing needs no permission');
      assert.deepEqual(permissions[0].params.options.map((o: Message) => o.kind).sort(), ['allow_always', 'allow_once', 'reject_always', 'reject_once']);
      assert.ok(turn.some((m) => m.method === 'fs/read_text_file'));
      assert.match(readFileSync(path.join(cwd, 'demo-notes.md'), 'utf8'), /Please explain/);
      const plans = client.updates('plan', turnStart);
      assert.ok(plans.length > 1 && plans.every((p) => p.entries.length === plans[0].entries.length), 'one plan, resent whole');
      assert.ok(plans.at(-1)!.entries.every((e: Message) => e.status === 'completed'));

      // A second turn: no new title, and usage keeps growing.
      const second = client.fromAgent.length;
      assert.equal((await client.result('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/help' }] })).stopReason, 'end_turn');
      assert.deepEqual(client.updates('session_info_update', second), []);
      const [nextUsage] = client.updates('usage_update', second);
      assert.ok(nextUsage.used > usage[0].used, `${nextUsage.used} > ${usage[0].used}`);
      assert.ok(nextUsage.cost.amount > usage[0].cost.amount);

      assert.deepEqual(client.schemaErrors(), []);
      assert.deepEqual(client.ownSchemaErrors(), []);
    } finally {
      await client.close();
    }
  });

  test('without session.configOptions.boolean there is no boolean option, and setting one is refused', SLOW, async () => {
    const cwd = workspace('no-boolean');
    const client = servingClient(cwd);
    try {
      await client.result('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true }, session: { configOptions: { boolean: null } } } });
      const { sessionId, configOptions } = await client.result('session/new', { cwd, mcpServers: [] });
      assert.deepEqual(configOptions.map((o: Message) => o.id), ['mode', 'model']);
      const response = await client.request('session/set_config_option', { sessionId, configId: 'verbose', type: 'boolean', value: true });
      assert.equal(response.error?.code, -32602);
      assert.deepEqual(client.schemaErrors(), []);
    } finally {
      await client.close();
    }
  });

  test('a cancel during the permission request: answered cancelled, usage still sent before the answer', SLOW, async () => {
    const cwd = workspace('cancel');
    const client = servingClient(cwd, undefined); // never answers the permission request by itself
    try {
      await client.result('initialize', { protocolVersion: 1, clientCapabilities: BOOLEAN_CAPS, clientInfo: CLIENT_INFO });
      const { sessionId } = await client.result('session/new', { cwd, mcpServers: [] });
      const turnStart = client.fromAgent.length;
      const answer = client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'cancel me' }] });
      const permission = await client.waitFor('the permission request', (m) => m.method === 'session/request_permission');
      client.notify('session/cancel', { sessionId });
      client.send({ jsonrpc: '2.0', id: permission.id, result: { outcome: { outcome: 'cancelled' } } });
      assert.equal((await answer).result?.stopReason, 'cancelled');
      await new Promise((resolve) => setTimeout(resolve, 100)); // anything sent late would show now
      const turn = client.fromAgent.slice(turnStart);
      assert.equal(turn.findIndex((m) => m.result?.stopReason), turn.length - 1, 'nothing after the cancelled answer');
      assert.equal(client.updates('usage_update', turnStart).length, 1);
      assert.equal(existsSync(path.join(cwd, 'demo-notes.md')), false);
      assert.deepEqual(client.schemaErrors(), []);
    } finally {
      await client.close();
    }
  });
});
