// The protocol trace's pure part: redaction, clipping, bounds, response correlation.
import test from 'node:test';
import assert from 'node:assert/strict';
import { TraceBuffer, TraceStore, clipString, sanitize } from '../../src/runtime/trace';
import { REDACTED, SecretScrubbers, redact } from '../../src/runtime/secrets';

const lines = (buffer: TraceBuffer) => buffer.entries().map((l) => JSON.parse(l) as { time: string; dir: string; for?: string; message: unknown });

test('env (arrays of {name,value} and objects) and headers keep their names, lose their values', () => {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'session/new',
    params: {
      cwd: '/w',
      mcpServers: [
        { name: 'db', command: '/bin/db', args: ['--x'], env: [{ name: 'DB_PASSWORD', value: 'hunter2' }, { name: 'PLAIN', value: 'visible?' }] },
        { type: 'http', name: 'web', url: 'https://x', headers: [{ name: 'X-Whatever', value: 'abc' }] },
      ],
    },
  };
  const out = redact(message) as typeof message;
  assert.deepEqual(out.params.mcpServers[0].env, [{ name: 'DB_PASSWORD', value: REDACTED }, { name: 'PLAIN', value: REDACTED }]);
  assert.deepEqual(out.params.mcpServers[0].args, ['--x']);
  assert.deepEqual((out.params.mcpServers[1] as { headers: unknown }).headers, [{ name: 'X-Whatever', value: REDACTED }]);
  assert.deepEqual(redact({ env: { MY_API_KEY: 'sk-1', OTHER: 'x' } }), { env: { MY_API_KEY: REDACTED, OTHER: REDACTED } });
  assert.deepEqual(redact({ env: 'A=b' }), { env: REDACTED });
  assert.equal(JSON.stringify(out).includes('hunter2'), false);
  // The original is not touched.
  assert.equal(message.params.mcpServers[0].env?.[0].value, 'hunter2');
});

test('secret-looking keys anywhere are redacted; numbers and booleans under them stay (token counts)', () => {
  const out = redact({
    result: {
      accessToken: 'a',
      nested: [{ client_secret: 's', Password: 'p', 'api-key': 'k', apiKey: 'k2', API_KEY: 'k3', authorization: 'Bearer x', Cookie: 'c=1', object: { token: { deep: 'x' } } }],
      usage: { inputTokens: 12, outputTokens: 3, cachedReadTokens: null },
      keep: 'me',
    },
  });
  assert.deepEqual(out, {
    result: {
      accessToken: REDACTED,
      nested: [{ client_secret: REDACTED, Password: REDACTED, 'api-key': REDACTED, apiKey: REDACTED, API_KEY: REDACTED, authorization: REDACTED, Cookie: REDACTED, object: { token: REDACTED } }],
      usage: { inputTokens: 12, outputTokens: 3, cachedReadTokens: null },
      keep: 'me',
    },
  });
});

test('known secret values are masked inside any string; short ones are not searched for', () => {
  const out = redact({ text: 'my key is sk-secret-123, again sk-secret-123', list: ['sk-secret-123-longer'], n: 'abc' }, ['sk-secret-123', 'sk-secret-123-longer', 'abc']);
  assert.deepEqual(out, { text: `my key is ${REDACTED}, again ${REDACTED}`, list: [REDACTED], n: 'abc' });
});

test('long strings are clipped with a note (a 1 MB tool output to 4 KB), surrogate pairs stay whole', () => {
  const big = 'x'.repeat(1024 * 1024);
  const out = sanitize({ update: { rawOutput: { stdout: big } } }, { maxString: 4096 }) as { update: { rawOutput: { stdout: string } } };
  const clipped = out.update.rawOutput.stdout;
  assert.ok(clipped.length < 4200, `${clipped.length}`);
  assert.ok(clipped.startsWith('x'.repeat(4096)));
  assert.match(clipped, /clipped: 1044480 of 1048576 chars not shown/);
  const emoji = clipString('a😀b', 2);
  assert.ok(emoji.startsWith('a…'), 'half a surrogate pair is not kept');
  assert.equal(clipString('short', 10), 'short');
});

test('the buffer keeps the last N messages, says so in its header, and names what a response answers', () => {
  const buffer = new TraceBuffer('Fake', { maxMessages: 3, maxString: 100, maxLine: 10_000, maxTotal: 1_000_000 });
  buffer.add('send', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
  buffer.add('receive', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } });
  buffer.add('receive', { jsonrpc: '2.0', id: 'p1', method: 'session/request_permission', params: {} });
  buffer.add('send', { jsonrpc: '2.0', id: 'p1', result: { outcome: { outcome: 'cancelled' } } });
  const kept = lines(buffer);
  assert.equal(kept.length, 3);
  assert.equal(buffer.recorded, 4);
  assert.deepEqual(kept.map((l) => [l.dir, l.for]), [['←', 'initialize'], ['←', undefined], ['→', 'session/request_permission']]);
  assert.ok(!Number.isNaN(Date.parse(kept[0].time)));
  const header = JSON.parse(buffer.text().split('\n')[0]) as Record<string, string>;
  assert.match(header.shown, /last 3 of 4 messages/);
  assert.match(header.redacted, /«redacted»/);
  assert.equal(buffer.text().trimEnd().split('\n').length, 4, 'header + 3 lines');
});

test('the buffer is bounded by size too: huge lines become a preview, the total drops the oldest', () => {
  const buffer = new TraceBuffer('Fake', { maxMessages: 1000, maxString: 100, maxLine: 2000, maxTotal: 5000 });
  buffer.add('receive', { many: Array.from({ length: 200 }, (_, i) => `item ${i}`) });
  const [only] = buffer.entries();
  assert.ok(only.length <= 2000, `${only.length}`);
  assert.match(only, /"clipped":/);
  for (let i = 0; i < 100; i++) buffer.add('receive', { text: 'y'.repeat(90), i });
  const total = buffer.entries().reduce((n, l) => n + l.length, 0);
  assert.ok(total <= 5000, `${total}`);
  assert.equal((JSON.parse(buffer.entries().at(-1)!) as { message: { i: number } }).message.i, 99);
});

test('the store keeps one trace per agent, masks each agent’s secrets, and tells listeners', () => {
  const secrets = new SecretScrubbers();
  const store = new TraceStore(undefined, secrets);
  const heard: string[] = [];
  store.onDidAdd((agent) => heard.push(agent));
  secrets.for('A').add('sk-secret-123', '1');
  store.add('A', 'receive', { text: 'sk-secret-123' });
  store.add('B', 'receive', { text: 'sk-secret-123' });
  assert.ok(!store.text('A').includes('sk-secret-123'));
  assert.ok(store.text('B').includes('sk-secret-123'), 'another agent’s env is not its secret');
  assert.deepEqual(heard, ['A', 'B']);
});
