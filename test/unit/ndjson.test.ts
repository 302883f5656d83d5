// NDJSON framing (ACP's stdio transport): one JSON-RPC object per line, whatever the chunking,
// with everything that is not a message skipped and reported instead of killing the stream.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PassThrough, Writable } from 'node:stream';
import type { Message } from 'vscode-jsonrpc/node';
import { NdjsonMessageReader, NdjsonMessageWriter } from '../../src/agent/ndjson';
import type { NdjsonReaderOptions, SkippedLine } from '../../src/agent/ndjson';

/** No test may hang the run (node:test has no default timeout). */
const TIMEOUT = { timeout: 10_000 };

const note = (n: number, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', n, ...extra },
});
const line = (message: object, ending = '\n') => `${JSON.stringify(message)}${ending}`;

function openReader(options: Omit<NdjsonReaderOptions, 'onSkippedLine'> = {}) {
  const input = new PassThrough();
  const messages: Message[] = [];
  const skipped: SkippedLine[] = [];
  let dataEvents = 0;
  input.on('data', () => dataEvents++);
  const reader = new NdjsonMessageReader(input, { ...options, onSkippedLine: (s) => skipped.push(s) });
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  reader.listen((m) => messages.push(m));
  return { input, reader, messages, skipped, closed, dataEvents: () => dataEvents };
}

/** Feeds every chunk as its own write (PassThrough keeps them apart), then EOF. */
async function readAll(chunks: Array<string | Buffer>, options: Omit<NdjsonReaderOptions, 'onSkippedLine'> = {}) {
  const r = openReader(options);
  for (const chunk of chunks) r.input.write(chunk);
  r.input.end();
  await r.closed;
  return r;
}

describe('NdjsonMessageReader: framing', () => {
  test('a message split byte by byte arrives once, intact', TIMEOUT, async () => {
    const bytes = Buffer.from(line(note(1, { text: 'byte by byte' })));
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    const r = await readAll(chunks);
    assert.equal(r.dataEvents(), bytes.length, 'the premise: every byte was its own chunk');
    assert.deepEqual(r.messages, [note(1, { text: 'byte by byte' })]);
    assert.deepEqual(r.skipped, []);
  });

  test('multi-byte UTF-8 characters split across chunks decode correctly', TIMEOUT, async () => {
    const text = 'prix: 5 € — 😀 日本語';
    const bytes = Buffer.from(line(note(1, { text })));
    const euro = bytes.indexOf(Buffer.from('€'));
    const emoji = bytes.indexOf(Buffer.from('😀'));
    assert.ok(euro > 0 && emoji > euro);
    // cut inside the 3-byte euro sign and inside the 4-byte emoji (twice)
    const cuts = [euro + 1, euro + 2, emoji + 1, emoji + 3];
    const chunks: Buffer[] = [];
    let from = 0;
    for (const cut of cuts) {
      chunks.push(bytes.subarray(from, cut));
      from = cut;
    }
    chunks.push(bytes.subarray(from));
    const r = await readAll(chunks);
    assert.deepEqual(r.messages, [note(1, { text })]);
  });

  test('several messages in one chunk all arrive, in order', TIMEOUT, async () => {
    const r = await readAll([line(note(1)) + line(note(2)) + line(note(3))]);
    assert.deepEqual(r.messages, [note(1), note(2), note(3)]);
  });

  test('a chunk may end one message, hold a whole one and start the next', TIMEOUT, async () => {
    const all = line(note(1)) + line(note(2)) + line(note(3));
    const a = 10;
    const b = line(note(1)).length + line(note(2)).length + 5;
    const r = await readAll([all.slice(0, a), all.slice(a, b), all.slice(b)]);
    assert.deepEqual(r.messages, [note(1), note(2), note(3)]);
  });

  test('\\r\\n line endings are accepted (also when \\r and \\n are in different chunks)', TIMEOUT, async () => {
    const first = line(note(1), '\r\n');
    const r = await readAll([first.slice(0, -1), '\n', line(note(2), '\r\n')]);
    assert.deepEqual(r.messages, [note(1), note(2)]);
    assert.deepEqual(r.skipped, []);
  });

  test('blank and whitespace-only lines are ignored silently', TIMEOUT, async () => {
    const r = await readAll(['\n\n', line(note(1)), '   \n\t\n\r\n', line(note(2)), '\n']);
    assert.deepEqual(r.messages, [note(1), note(2)]);
    assert.deepEqual(r.skipped, []);
  });

  test('a last message without its newline still arrives at EOF', TIMEOUT, async () => {
    const r = await readAll([line(note(1)), JSON.stringify(note(2))]);
    assert.deepEqual(r.messages, [note(1), note(2)]);
  });

  test('onMessage (the trace) sees every message, before the connection does', TIMEOUT, async () => {
    const order: string[] = [];
    const input = new PassThrough();
    const reader = new NdjsonMessageReader(input, { onMessage: (m) => order.push(`trace ${JSON.stringify(m)}`) });
    const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
    reader.listen((m) => order.push(`callback ${JSON.stringify(m)}`));
    input.end(line(note(1)) + line(note(2)));
    await closed;
    const [a, b] = [JSON.stringify(note(1)), JSON.stringify(note(2))];
    assert.deepEqual(order.filter((o) => o.startsWith('trace')), [`trace ${a}`, `trace ${b}`]);
    assert.deepEqual(order.filter((o) => o.startsWith('callback')), [`callback ${a}`, `callback ${b}`]);
    for (const m of [a, b]) assert.ok(order.indexOf(`trace ${m}`) < order.indexOf(`callback ${m}`), `trace first: ${order.join(', ')}`);
  });
});

describe('NdjsonMessageReader: lines that are not messages', () => {
  test('banners, npm warnings and escape sequences are skipped as not-json, and the messages around them arrive', TIMEOUT, async () => {
    const banner = 'npm WARN config production Use `--omit=dev` instead.';
    const ansi = '\x1b[32m✔\x1b[0m ready';
    const r = await readAll([`${banner}\n`, line(note(1)), `${ansi}\n`, line(note(2))]);
    assert.deepEqual(r.messages, [note(1), note(2)]);
    assert.deepEqual(r.skipped, [
      { reason: 'not-json', preview: banner },
      { reason: 'not-json', preview: ansi },
    ]);
  });

  test('a line that looks like JSON but does not parse is reported as malformed-json', TIMEOUT, async () => {
    const r = await readAll(['{not json\n', '[1, 2\n', line(note(1))]);
    assert.deepEqual(r.messages, [note(1)]);
    assert.deepEqual(
      r.skipped.map((s) => s.reason),
      ['malformed-json', 'malformed-json'],
    );
  });

  test('JSON that is not a JSON-RPC message is reported as invalid-message with its id', TIMEOUT, async () => {
    const r = await readAll(['42\n', '[1,2,3]\n', line({ jsonrpc: '1.0', id: 7, method: 'x' }), line(note(1))]);
    assert.deepEqual(r.messages, [note(1)]);
    const invalid = r.skipped.map((s) => (s.reason === 'invalid-message' ? { id: s.id, preview: s.preview } : s));
    assert.deepEqual(invalid, [
      { id: null, preview: '42' },
      { id: null, preview: '[1,2,3]' },
      { id: 7, preview: JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'x' }) },
    ]);
  });

  test('the preview of a long skipped line is cut to 200 characters', TIMEOUT, async () => {
    const garbage = 'x'.repeat(5000);
    const r = await readAll([`${garbage}\n`]);
    assert.equal(r.skipped.length, 1);
    const s = r.skipped[0];
    assert.equal(s.reason, 'not-json');
    if (s.reason !== 'not-json') return;
    assert.ok(s.preview.length <= 201, `preview of ${s.preview.length} chars`);
    assert.ok(garbage.startsWith(s.preview.replace(/…$/, '')));
  });
});

describe('NdjsonMessageReader: the line-length cap', () => {
  const CAP = 1024;

  test('a line over maxLineBytes is dropped and reported with its size; the next message still arrives', TIMEOUT, async () => {
    const huge = line(note(1, { blob: 'x'.repeat(10_000) }));
    const hugeBytes = Buffer.byteLength(huge) - 1; // without its newline
    const r = openReader({ maxLineBytes: CAP });
    let maxHeld = 0;
    const held = () => Reflect.get(r.reader, 'pieceBytes') as unknown;
    assert.equal(typeof held(), 'number', 'white-box probe: NdjsonMessageReader keeps its buffered byte count in pieceBytes');
    for (let i = 0; i < huge.length; i += 100) {
      r.input.write(huge.slice(i, i + 100));
      maxHeld = Math.max(maxHeld, held() as number);
    }
    r.input.write(line(note(2)));
    r.input.end();
    await r.closed;
    assert.deepEqual(r.skipped, [{ reason: 'too-long', bytes: hugeBytes }]);
    assert.deepEqual(r.messages, [note(2)]);
    assert.ok(maxHeld <= CAP, `the reader buffered ${maxHeld} bytes of a line, over the cap of ${CAP}`);
  });

  test('a huge line and the next message in the same chunk: dropped, then parsed', TIMEOUT, async () => {
    const huge = 'y'.repeat(CAP * 3);
    const r = await readAll([`${huge}\n${line(note(2))}`], { maxLineBytes: CAP });
    assert.deepEqual(r.skipped, [{ reason: 'too-long', bytes: CAP * 3 }]);
    assert.deepEqual(r.messages, [note(2)]);
  });

  test('the size counts bytes, not characters', TIMEOUT, async () => {
    const r = await readAll([`${'€'.repeat(CAP)}\n`, line(note(2))], { maxLineBytes: CAP });
    assert.deepEqual(r.skipped, [{ reason: 'too-long', bytes: CAP * 3 }]);
    assert.deepEqual(r.messages, [note(2)]);
  });

  test('a line of exactly maxLineBytes is kept', TIMEOUT, async () => {
    const base = JSON.stringify(note(1, { blob: '' }));
    const message = note(1, { blob: 'z'.repeat(CAP - base.length) });
    assert.equal(JSON.stringify(message).length, CAP);
    const r = await readAll([line(message)], { maxLineBytes: CAP });
    assert.deepEqual(r.messages, [message]);
    assert.deepEqual(r.skipped, []);
  });

  test('an over-long last line without a newline is reported at EOF', TIMEOUT, async () => {
    const r = await readAll([line(note(1)), 'q'.repeat(CAP + 1)], { maxLineBytes: CAP });
    assert.deepEqual(r.messages, [note(1)]);
    assert.deepEqual(r.skipped, [{ reason: 'too-long', bytes: CAP + 1 }]);
  });

  test('two over-long lines in a row are reported separately', TIMEOUT, async () => {
    const r = await readAll([`${'a'.repeat(CAP + 10)}\n${'b'.repeat(CAP * 2)}\n`, line(note(3))], { maxLineBytes: CAP });
    assert.deepEqual(r.skipped, [
      { reason: 'too-long', bytes: CAP + 10 },
      { reason: 'too-long', bytes: CAP * 2 },
    ]);
    assert.deepEqual(r.messages, [note(3)]);
  });
});

/** A stdin stand-in that finishes each write after the next of `delays` (ms, in turn) and records overlap. */
class SlowSink extends Writable {
  readonly chunks: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private writes = 0;

  constructor(private readonly delays: readonly number[] = [1]) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    setTimeout(() => {
      this.chunks.push(chunk.toString('utf8'));
      this.inFlight--;
      callback();
    }, this.delays[this.writes++ % this.delays.length]);
  }
}

describe('NdjsonMessageWriter', () => {
  test('writes exactly one line per message, with no newline inside it', TIMEOUT, async () => {
    const out = new PassThrough();
    let text = '';
    out.setEncoding('utf8').on('data', (c: string) => (text += c));
    const writer = new NdjsonMessageWriter(out);
    const messages = [
      { jsonrpc: '2.0', id: 0, method: 'session/prompt', params: { prompt: [{ type: 'text', text: 'two\nlines\r\nand a\u2028separator' }] } },
      { jsonrpc: '2.0', id: 1, result: { content: 'a\n\nb\n' } },
      { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'multi\nline' } },
    ] as unknown as Message[];
    for (const m of messages) await writer.write(m);
    assert.ok(text.endsWith('\n'));
    const lines = text.split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines.length, messages.length);
    assert.deepEqual(lines, messages.map((m) => JSON.stringify(m)));
    assert.deepEqual(lines.map((l) => JSON.parse(l) as unknown), messages);
    assert.ok(lines.every((l) => !l.includes('\r')));
  });

  test('concurrent writes stay in order, one write in flight at a time, however long each write takes', TIMEOUT, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 50 }), async (delays) => {
        const sink = new SlowSink(delays);
        const writer = new NdjsonMessageWriter(sink);
        const messages = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', method: 'session/update', params: { n: i } }) as Message);
        await Promise.all(messages.map((m) => writer.write(m)));
        const lines = sink.chunks.join('').split('\n').filter(Boolean);
        assert.deepEqual(lines.map((l) => (JSON.parse(l) as { params: { n: number } }).params.n), messages.map((_, i) => i));
        assert.equal(sink.maxInFlight, 1);
      }),
      { numRuns: 15 },
    );
  });

  test('onMessage (the trace) sees each message as it is queued', TIMEOUT, async () => {
    const seen: Message[] = [];
    const writer = new NdjsonMessageWriter(new PassThrough(), (m) => seen.push(m));
    const m = { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } } as Message;
    await writer.write(m);
    assert.deepEqual(seen, [m]);
  });

  // The writer never rejects (vscode-jsonrpc would turn a rejected request write into an
  // unhandled rejection); a failed write is reported through onError, once per message.
  test('a write after the stream ended is reported through onError, and so is every later one', TIMEOUT, async () => {
    const out = new PassThrough();
    out.resume();
    const writer = new NdjsonMessageWriter(out);
    const errors: string[] = [];
    writer.onError(([error, message]) => errors.push(`${(message as { method?: string } | undefined)?.method}: ${error.message}`));
    await writer.write({ jsonrpc: '2.0', method: 'a' } as Message);
    writer.end();
    await writer.write({ jsonrpc: '2.0', method: 'b' } as Message);
    await writer.write({ jsonrpc: '2.0', method: 'c' } as Message);
    assert.deepEqual(errors, ['b: The agent closed its stdin', 'c: The agent closed its stdin']);
  });

  test('writes queued before the stream is destroyed settle and are reported instead of hanging', TIMEOUT, async () => {
    const sink = new SlowSink();
    sink.on('error', () => undefined);
    const writer = new NdjsonMessageWriter(sink);
    let failures = 0;
    writer.onError(() => failures++);
    const pending = [1, 2, 3].map((n) => writer.write({ jsonrpc: '2.0', method: 'x', params: { n } } as Message));
    sink.destroy();
    const outcomes = await Promise.allSettled(pending);
    assert.ok(outcomes.every((o) => o.status === 'fulfilled'), JSON.stringify(outcomes));
    // The first may have been accepted before destroy; the rest must have been refused.
    assert.ok(failures >= 2, `failures reported: ${failures}`);
  });

  test('end() ends the stream and may be called twice', TIMEOUT, async () => {
    const out = new PassThrough();
    out.resume();
    const writer = new NdjsonMessageWriter(out);
    writer.end();
    writer.end();
    assert.equal(out.writableEnded, true);
  });
});
