// Saved transcripts are sized entry by entry (src/host/sessions/savedTranscript.ts): a 50 MB tool
// output or reply is clipped with a marker, an entry that cannot fit even clipped becomes a
// marker, the rest of the transcript is saved as it was, and the whole stays within its budget.
import test from 'node:test';
import assert from 'node:assert/strict';
import { fitEntry, MAX_ENTRY_CHARS, MAX_TRANSCRIPT_CHARS, savedEntries } from '../../src/host/sessions/savedTranscript';
import { SessionStore } from '../../src/host/sessions/sessionStore';
import { MASK, SecretScrubber } from '../../src/runtime/secrets';
import type { EntryView } from '../../src/webview-protocol/entries';
import { FakeMemento } from './helpers/memento';

const MB = 1_000_000;
const huge = (n: number) => 'x'.repeat(n);
const tool = (content: Extract<EntryView, { kind: 'tool' }>['content'], over: Partial<Extract<EntryView, { kind: 'tool' }>> = {}): EntryView => ({
  kind: 'tool', toolCallId: 'call-1', title: 'Run tests', toolKind: 'execute', status: 'completed', content, locations: [], ...over,
});

test('a 50 MB tool output is clipped with a marker; every other entry is saved as it was, and read back', async () => {
  const entries: EntryView[] = [
    { kind: 'user', text: 'run the tests' },
    tool([{ type: 'text', text: `START${huge(50 * MB)}` }, { type: 'text', text: 'small' }]),
    { kind: 'agent', text: 'All green.' },
    { kind: 'turnEnd', stopReason: 'end_turn' },
  ];
  const store = new SessionStore(new FakeMemento());
  const ref = { agentName: 'A', sessionId: 's' };
  await store.saveTranscript(ref, entries);
  const saved = store.transcript(ref);
  assert.ok(saved, 'saved, and still a valid transcript');
  assert.equal(saved.length, 4);
  assert.deepEqual([saved[0], saved[2], saved[3]], [entries[0], entries[2], entries[3]]);
  const clipped = saved[1];
  assert.ok(clipped.kind === 'tool' && clipped.content[0].type === 'text' && clipped.content[1].type === 'text');
  assert.ok(clipped.content[0].text.startsWith('START'));
  assert.match(clipped.content[0].text, /… \[[\d,]+ more characters were not saved\]$/);
  assert.equal(clipped.content[1].text, 'small');
  assert.equal(clipped.title, 'Run tests');
  assert.ok(JSON.stringify(clipped).length <= MAX_ENTRY_CHARS);
  assert.ok(JSON.stringify(saved).length <= MAX_TRANSCRIPT_CHARS);
});

test('a huge newest entry is clipped: it no longer empties the saved transcript (oldest entries went first until none was left)', () => {
  const entries: EntryView[] = [{ kind: 'user', text: 'explain' }, { kind: 'agent', text: huge(30 * MB) }];
  const saved = savedEntries(entries);
  assert.equal(saved.length, 2);
  assert.deepEqual(saved[0], entries[0]);
  assert.ok(saved[1].kind === 'agent' && saved[1].text.length < MAX_ENTRY_CHARS && saved[1].text.endsWith('characters were not saved]'));
});

test('an entry too big even with its strings clipped (a million locations) is a marker in its place', () => {
  const locations = Array.from({ length: 1_000_000 }, (_, i) => ({ path: `/w/f${i}.ts`, line: i }));
  const { entry, size } = fitEntry(tool([], { locations }));
  assert.deepEqual(entry, { kind: 'error', message: 'This tool call was too large to save.' });
  assert.equal(size, JSON.stringify(entry).length);
  // Many strings each under the first clip: clipped harder until the entry fits.
  const many = tool(Array.from({ length: 50 }, (_, i) => ({ type: 'text' as const, text: `${i}${huge(100_000)}` })));
  const fitted = fitEntry(many);
  assert.ok(fitted.entry.kind === 'tool' && fitted.entry.content.length === 50 && fitted.size <= MAX_ENTRY_CHARS);
  assert.ok(fitted.entry.content.every((c, i) => c.type === 'text' && c.text.startsWith(String(i)) && c.text.endsWith('not saved]')));
});

test('past the total budget the oldest entries go, and a marker at the start says how many', () => {
  const entries: EntryView[] = Array.from({ length: 100 }, (_, i) => ({ kind: 'agent', text: `${i} ${huge(50_000)}` }));
  const saved = savedEntries(entries);
  assert.ok(JSON.stringify(saved).length <= MAX_TRANSCRIPT_CHARS);
  const dropped = 100 - (saved.length - 1);
  assert.deepEqual(saved[0], { kind: 'error', message: `The ${dropped} entries before this point were not saved: a saved transcript keeps the newest 2,000,000 characters.` });
  assert.ok(dropped > 50 && dropped < 70, `${dropped} dropped`);
  assert.deepEqual(saved.slice(1), entries.slice(dropped), 'the newest are kept whole, in order');
  assert.deepEqual(savedEntries(entries.slice(-3)), entries.slice(-3), 'within the budget: nothing dropped, no marker');
});

test('a clip never splits a surrogate pair', () => {
  const text = `${'a'.repeat(MAX_ENTRY_CHARS - 1)}😀${'b'.repeat(MB)}`;
  const { entry } = fitEntry({ kind: 'agent', text });
  assert.ok(entry.kind === 'agent');
  assert.doesNotMatch(entry.text, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no lone high surrogate');
});

test('notices, compactions, plans by id, a turn’s usage and a tool’s raw fields are saved and read back as they were', async () => {
  const entries: EntryView[] = [
    tool([], { name: 'bash', rawInput: '{\n  "command": "ls"\n}', rawOutput: '"ok"' }),
    { kind: 'notice', severity: 'warning', title: 'Rate limit near', description: null },
    { kind: 'compaction', compactionId: 'c1', status: 'completed', summary: 'Kept the plan.', error: null },
    { kind: 'planById', planId: 'p1', content: { type: 'markdown', text: '1. x' } },
    { kind: 'planById', planId: 'p2', content: null },
    { kind: 'turnEnd', stopReason: 'end_turn', usage: { tokens: { total: 3, input: 2, output: 1, thought: null, cachedRead: null, cachedWrite: null }, cost: null, quota: [{ label: 'used', value: 1 }] } },
  ];
  const store = new SessionStore(new FakeMemento());
  const ref = { agentName: 'A', sessionId: 's' };
  await store.saveTranscript(ref, entries);
  assert.deepEqual(store.transcript(ref), entries);
});

test('secrets are masked in what is kept, and the masking is given only that, not the whole transcript', async () => {
  const scrubber = new SecretScrubber();
  scrubber.add('sk-secret-value');
  // 3,000 entries of about 1,000 characters, each quoting the secret: about 2,000 fit the budget.
  const entries: EntryView[] = Array.from({ length: 3000 }, (_, i) => ({ kind: 'agent', text: `${i} sk-secret-value ${huge(1000)}` }));
  const store = new SessionStore(new FakeMemento());
  const ref = { agentName: 'A', sessionId: 's' };
  let given = 0;
  await store.saveTranscript(ref, entries, (kept) => {
    given = (kept as unknown as unknown[]).length;
    return scrubber.scrubDeep(kept);
  });
  const saved = store.transcript(ref)!;
  assert.ok(saved.length > 1000 && saved.length < 3000, `${saved.length} entries kept`);
  assert.equal(given, saved.length, 'the masking walked what is kept only');
  const text = JSON.stringify(saved);
  assert.equal(text.includes('sk-secret-value'), false);
  const last = saved.at(-1);
  assert.ok(last?.kind === 'agent' && last.text.startsWith(`2999 ${MASK} `));
  assert.ok(text.length <= MAX_TRANSCRIPT_CHARS);
});

test('a save fits only the entries new since the one before (entries are replaced, never changed); a clipped one is fitted again', () => {
  let read = 0;
  // An entry whose text counts its reads, as a diff summary computes itself when first read.
  const counted = Object.defineProperty({ kind: 'agent' }, 'text', { enumerable: true, get: () => (read++, 'counted') }) as EntryView;
  const big = tool([{ type: 'text', text: huge(MAX_ENTRY_CHARS + 10) }]);
  savedEntries([counted, big]);
  assert.equal(read, 1);
  const fresh: EntryView = { kind: 'agent', text: 'new' };
  const saved = savedEntries([counted, big, fresh]);
  assert.equal(read, 1, 'the entry saved before is not read again');
  assert.deepEqual(JSON.parse(JSON.stringify([saved[0], saved[2]])), [{ kind: 'agent', text: 'counted' }, fresh]);
  const clipped = saved[1];
  assert.ok(clipped.kind === 'tool' && clipped.content[0].type === 'text' && clipped.content[0].text.length < MAX_ENTRY_CHARS, 'the big one clipped again');
});
