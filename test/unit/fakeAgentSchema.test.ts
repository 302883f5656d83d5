// The fake agents check what ACP Host sends them against the official schema (fixtures/agents/
// schema-check.js): shown here on the well-behaved fake, spoken to directly over its stdio.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import test from 'node:test';

const FAKE = path.resolve(__dirname, '../../../test/fixtures/agents/well-behaved.js');

function fake(file = FAKE) {
  const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  type Answer = { result?: unknown; error?: { code: number; message: string } };
  const answers = new Map<number, (m: Answer) => void>();
  lines.on('line', (line) => {
    const message = JSON.parse(line) as Answer & { id?: number; method?: string };
    if (message.method === undefined && typeof message.id === 'number') answers.get(message.id)?.(message);
  });
  let nextId = 0;
  return {
    child,
    stderr: () => stderr,
    send: (message: object) => child.stdin.write(JSON.stringify(message) + '\n'),
    request(method: string, params: unknown) {
      const id = nextId++;
      return new Promise<Answer>((resolve) => {
        answers.set(id, resolve);
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      });
    },
    exited: new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
  };
}

test('a fake agent answers an invalid request -32602 naming the field, and serves the valid one after it', async () => {
  const agent = fake();
  try {
    const init = await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    assert.equal(init.error, undefined);
    const bad = await agent.request('session/new', { cwd: '/tmp' }); // mcpServers is required
    assert.equal(bad.error?.code, -32602);
    assert.match(bad.error?.message ?? '', /session\/new.*mcpServers/);
    const good = await agent.request('session/new', { cwd: '/tmp', mcpServers: [] });
    assert.equal(good.error, undefined);
    assert.match(agent.stderr(), /SCHEMA VIOLATION in session\/new/);
  } finally {
    agent.child.kill();
  }
});

test('an invalid notification from the client ends the fake agent with the reason on stderr', async () => {
  const agent = fake();
  await agent.request('initialize', { protocolVersion: 1 });
  agent.send({ jsonrpc: '2.0', method: 'session/cancel', params: { session: 'x' } }); // sessionId is required
  assert.equal(await agent.exited, 70);
  assert.match(agent.stderr(), /SCHEMA VIOLATION in session\/cancel.*sessionId/);
});

test('comment-agent.js refuses review comments that are not what ACP Host promises, and echoes the right ones', async () => {
  const agent = fake(path.resolve(__dirname, '../../../test/fixtures/agents/comment-agent.js'));
  try {
    await agent.request('initialize', { protocolVersion: 1 });
    const { result } = await agent.request('session/new', { cwd: '/tmp', mcpServers: [] });
    const sessionId = (result as { sessionId: string }).sessionId;
    const said = { type: 'text', text: 'Review comment on src/a.ts:2-3: rename it' };
    const prompt = (...blocks: object[]) => agent.request('session/prompt', { sessionId, prompt: blocks });
    const wrongLines = await prompt(said, { type: 'resource', resource: { uri: 'file:///w/src/a.ts#L5-L6', text: 'a\nb' } });
    assert.equal(wrongLines.error?.code, -32602);
    assert.match(wrongLines.error?.message ?? '', /comment-agent: block 1: resource uri .* is not the file at #L2-L3/);
    const noLines = await prompt(said);
    assert.match(noLines.error?.message ?? '', /the comment's lines do not follow it/);
    const wrongLink = await prompt(said, { type: 'resource_link', uri: 'file:///w/src/b.ts', name: 'src/b.ts' });
    assert.match(wrongLink.error?.message ?? '', /is not to src\/a\.ts/);
    const good = await prompt(said, { type: 'resource', resource: { uri: 'file:///w/src/a.ts#L2-L3', text: 'a\nb' } });
    assert.deepEqual(good.result, { stopReason: 'end_turn' });
  } finally {
    agent.child.kill();
  }
});
