// The bundled demo agent (dist/demo-agent.js, made by `npm run build`) driven over its real
// stdio: every message it writes must be valid against the official ACP v1 schema, and the
// features it exists to show (config options mirroring the modes, a titled session, usage, a
// console-output tool call, a permission) must be on the wire the way a client expects them.
import test, { after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEMO, DemoClient, serveFsAndPermission, type Message } from './helpers/demoClient';

const SLOW = { timeout: 30_000 };

/** A client in `cwd` that serves fs and permissions; `permission` picks the option kind. */
/** `permission: null` leaves permission requests unanswered (a default parameter would turn `undefined` into allow_once). */
function servingClient(cwd: string, permission: string | null = 'allow_once'): DemoClient {
  // Sessions are saved in the test's temp dir, not the user's (demo-agent.sessions.test.ts tests that).
  return new DemoClient({ cwd, stateDir: path.join(tmp, 'state'), serve: serveFsAndPermission(permission ?? undefined) });
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
    const client = servingClient(cwd, null); // never answers the permission request by itself
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
