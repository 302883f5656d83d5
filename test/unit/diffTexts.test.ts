// The full texts of a session's diffs are kept within a budget (src/session/diffTexts.ts): the
// oldest lose theirs first, their cards keep the summary and say so (textsDropped), and are shown
// again; a diff too big on its own keeps none; a repeat of a dropped diff stays as it is.
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SessionUpdateSchema } from '../../src/protocol';
import { DiffTexts, MAX_DIFF_TEXT_CHARS } from '../../src/session/diffTexts';
import { Transcript } from '../../src/session/transcript';
import type { DiffSource, TranscriptEvent } from '../../src/session/transcript';

const diff = (path: string, newText: string, oldText: string | null = null) => ({ type: 'diff', path, oldText, newText });
const call = (toolCallId: string, content: unknown[], sessionUpdate = 'tool_call') => SessionUpdateSchema.parse({ sessionUpdate, toolCallId, title: 'Edit', kind: 'edit', content });
const dropped = (t: Transcript, index: number, contentIndex = 0) => {
  const entry = t.entries[index];
  assert.ok(entry.kind === 'tool');
  const content = entry.content[contentIndex];
  assert.ok(content.type === 'diff');
  return content.textsDropped === true;
};

test('past the budget the oldest diffs lose their texts; their cards say so and are shown again', () => {
  const t = new Transcript(100);
  const events: TranscriptEvent[] = [];
  t.onChange((e) => events.push(e));
  t.apply(call('a', [diff('/w/a.ts', 'a'.repeat(40))]));
  t.apply(call('b', [diff('/w/b.ts', 'b'.repeat(20), 'B'.repeat(20))]));
  assert.equal(t.diffSource(0, 0)?.newText, 'a'.repeat(40));
  events.length = 0;
  t.apply(call('c', [{ type: 'content', content: { type: 'text', text: 'writing' } }, diff('/w/c.ts', 'c'.repeat(40))]));
  assert.equal(t.diffSource(0, 0), undefined, 'the oldest lost its texts');
  assert.equal(dropped(t, 0), true);
  assert.deepEqual(t.diffSource(1, 0), { path: '/w/b.ts', oldText: 'B'.repeat(20), newText: 'b'.repeat(20) });
  assert.equal(t.diffSource(2, 1)?.newText, 'c'.repeat(40));
  assert.equal([dropped(t, 1), dropped(t, 2, 1)].includes(true), false);
  assert.deepEqual(events, [{ type: 'added', index: 2 }, { type: 'updated', index: 0 }], 'the dropped card is shown again');
  const first = t.entries[0];
  assert.ok(first.kind === 'tool' && first.content[0].type === 'diff' && first.content[0].added === 1, 'its summary stays');
});

test('a diff over the budget on its own keeps no texts and costs the others nothing; its repeat stays dropped', () => {
  const t = new Transcript(100);
  t.apply(call('a', [diff('/w/a.ts', 'a'.repeat(40))]));
  t.apply(call('big', [diff('/w/big.ts', 'x'.repeat(500))]));
  assert.equal(t.diffSource(1, 0), undefined);
  assert.equal(dropped(t, 1), true);
  assert.equal(t.diffSource(0, 0)?.newText, 'a'.repeat(40), 'the others keep theirs');
  // Agents resend a call's content with its status: the same diff is not summarised again.
  const before = t.entries[1];
  t.apply(call('big', [diff('/w/big.ts', 'x'.repeat(500))], 'tool_call_update'));
  const after = t.entries[1];
  assert.ok(before.kind === 'tool' && after.kind === 'tool');
  assert.equal(after.content[0], before.content[0], 'the same summary object: nothing recomputed');
  assert.equal(t.diffSource(0, 0)?.newText, 'a'.repeat(40));
});

test('replaced content gives its texts back; clear and restore keep none', () => {
  const texts = new DiffTexts(100);
  texts.set('a', [{ path: '/w/a.ts', oldText: 'o'.repeat(10), newText: 'n'.repeat(30) }]);
  assert.equal(texts.keptChars, 40);
  texts.set('a', [undefined, { path: '/w/a.ts', oldText: null, newText: 'm'.repeat(5) }]);
  assert.equal(texts.keptChars, 5);
  assert.equal(texts.source('a', 0), undefined);
  assert.equal(texts.source('a', 1)?.newText, 'mmmmm');
  texts.clear();
  assert.equal(texts.keptChars, 0);

  const t = new Transcript();
  t.apply(call('a', [diff('/w/a.ts', 'x\n')]));
  const saved = t.entries.map((e) => structuredClone(e));
  t.restore(saved);
  assert.equal(t.diffSource(0, 0), undefined);
  assert.equal(dropped(t, 0), true, 'a restored card says its texts are gone');
});

test('a long session of big edits stays within the default budget', () => {
  const t = new Transcript();
  const text = 'line of text\n'.repeat(80_000); // ~1 MB per side
  for (let i = 0; i < 40; i++) t.apply(call(`e${i}`, [diff(`/w/f${i}.ts`, `${text}${i}`, text)]));
  const kept = t.entries.filter((_, i) => t.diffSource(i, 0) !== undefined).length;
  assert.ok(kept > 0 && kept < 40, `${kept} kept`);
  assert.ok(t.diffSource(39, 0), 'the newest is kept');
  assert.equal(t.diffSource(0, 0), undefined, 'the oldest is not');
  assert.ok(kept * 2 * text.length <= MAX_DIFF_TEXT_CHARS);
});

/** The heap in use after a GC on demand (as `node --expose-gc` gives it: heap figures without it are noise). */
async function settledHeap(): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // V8 sweeps after a GC on threads of its own: the least of a few readings.
  const readings: number[] = [];
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
    readings.push(process.memoryUsage().heapUsed);
  }
  return Math.min(...readings);
}

test('dropped diff texts are freed: the cards\' previews keep no part of them alive', async () => {
  // Distinct flat files of 100 KB, one line edited: 100 edits are 20 MB of texts, where the
  // budget keeps 1 MB; each card previews the edited line, before and after.
  const file = (i: number, edited: boolean) => Array.from({ length: 1_400 }, (_, n) => `export const value${n}_${i} = compute(${n}, '${edited && n === 7 ? 'edited' : 'original'}'); // file ${i}\n`).join('');
  const before = await settledHeap();
  const t = new Transcript(1_000_000);
  for (let i = 0; i < 100; i++) t.apply(call(`e${i}`, [diff(`/w/f${i}.ts`, file(i, true), file(i, false))]));
  const grown = (await settledHeap()) - before;
  const cards = t.entries.flatMap((e) => (e.kind === 'tool' ? e.content : []));
  assert.deepEqual(cards[99], { type: 'diff', path: '/w/f99.ts', isNewFile: false, added: 1, removed: 1, preview: ["-export const value7_99 = compute(7, 'original'); // file 99", "+export const value7_99 = compute(7, 'edited'); // file 99"], previewTruncated: false });
  assert.ok(grown < 6_000_000, `the heap grew by ${(grown / 1e6).toFixed(1)} MB for a budget of 1 MB of diff texts`);
});

/** `text` as a string of its own: equal in value, no memory shared with it (as JSON.parse gives each message). */
const copyOf = (text: string) => JSON.parse(JSON.stringify(text)) as string;

test('an edit whose old text is the new text of the edit before it shares that text: charged once, kept as long as either diff', () => {
  const [v0, v1, v2] = ['0', '1', '2'].map((c) => c.repeat(30));
  const texts = new DiffTexts(100);
  texts.set('a', [{ path: '/w/f.ts', oldText: v0, newText: v1 }]);
  texts.set('b', [{ path: '/w/f.ts', oldText: copyOf(v1), newText: v2 }]);
  assert.equal(texts.keptChars, 90, 'v0, v1 and v2 once each, where the texts add up to 120');
  assert.equal(texts.source('a', 0)?.newText, v1);
  assert.equal(texts.source('b', 0)?.oldText, v1);
  // Another file's edit makes room: the older diff goes, the text it shared stays with the newer one.
  const { dropped } = texts.set('c', [{ path: '/w/g.ts', oldText: null, newText: 'g'.repeat(30) }]);
  assert.deepEqual([...dropped], ['a']);
  assert.equal(texts.source('a', 0), undefined);
  assert.deepEqual(texts.source('b', 0), { path: '/w/f.ts', oldText: v1, newText: v2 });
  assert.equal(texts.keptChars, 90, 'b is charged for v1 now: v1, v2 and g');
  // Replaced, b gives both back.
  texts.set('b', []);
  assert.equal(texts.keptChars, 30);
});

test('an edit from another base than the newest text of its file shares nothing', () => {
  const [v0, v1, v2] = ['0', '1', '2'].map((c) => c.repeat(30));
  const texts = new DiffTexts(1000);
  texts.set('a', [{ path: '/w/f.ts', oldText: v0, newText: v1 }]);
  texts.set('b', [{ path: '/w/f.ts', oldText: v1, newText: v2 }]);
  texts.set('retry', [{ path: '/w/f.ts', oldText: copyOf(v1), newText: v0 }]);
  assert.equal(texts.keptChars, 150, 'a: v0 v1; b: v2 (its v1 is a\'s); the retry: its own v1, and v0');
  texts.set('other', [{ path: '/w/g.ts', oldText: v1, newText: v2 }]);
  assert.equal(texts.keptChars, 210, 'the same text in another file is another file\'s');
});

test('chained, unchained, replaced and dropped diffs in any order: what is kept is never over the budget, nor under the texts it holds', () => {
  // Walks through edits of three files by five tool calls; texts are versions of their file.
  const step = fc.record({
    file: fc.constantFrom('a', 'b', 'c'),
    call: fc.nat({ max: 4 }),
    // From the file's newest text (a chain), or a new file.
    fromNewest: fc.boolean(),
    // No content; one edit; two from the same text; or the call's first diff again (as an agent resends what it has).
    shape: fc.constantFrom('none', 'one', 'two', 'again'),
    lengths: fc.tuple(fc.integer({ min: 20, max: 79 }), fc.integer({ min: 20, max: 79 })),
  });
  fc.assert(
    fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
      const budget = 400;
      const texts = new DiffTexts(budget);
      const versions = new Map<string, string>();
      const content = new Map<string, DiffSource[]>();
      steps.forEach(({ file, call, fromNewest, shape, lengths }, n) => {
        const path = `/w/${file}.ts`;
        const toolCallId = `t${call}`;
        const from = fromNewest ? (versions.get(path) ?? null) : null;
        const source = { path, oldText: from === null ? null : copyOf(from), newText: `${path}@${n}:`.padEnd(lengths[0], '.') };
        const second = { path, oldText: from === null ? null : copyOf(from), newText: `${path}@-${n}:`.padEnd(lengths[1], '.') };
        const sources: DiffSource[] = { none: [], one: [source], two: [source, second], again: (content.get(toolCallId) ?? []).slice(0, 1) }[shape];
        if (sources.includes(source)) versions.set(path, source.newText);
        content.set(toolCallId, sources);
        texts.set(toolCallId, sources);
        const held = [...content.keys()].flatMap((id) => [0, 1].flatMap((at) => (texts.source(id, at) ? [texts.source(id, at)!] : [])));
        const all = held.flatMap((s) => [s.oldText ?? '', s.newText]);
        const total = all.reduce((sum, t) => sum + t.length, 0);
        const distinct = [...new Set(all)].reduce((sum, t) => sum + t.length, 0);
        assert.ok(texts.keptChars <= budget, `step ${n}: ${texts.keptChars} kept`);
        assert.ok(texts.keptChars >= distinct && texts.keptChars <= total, `step ${n}: ${texts.keptChars} kept, texts ${distinct}–${total}`);
        // A new edit keeps its texts (a resent one stays as it was: dropped, if it was).
        if (sources.includes(source)) assert.deepEqual(texts.source(toolCallId, sources.length - 1), sources.at(-1), `step ${n}: the newest diff keeps its texts`);
      });
      // Every charge was moved, not lost nor counted twice: with every call's content gone, nothing is kept.
      for (const toolCallId of content.keys()) texts.set(toolCallId, []);
      assert.equal(texts.keptChars, 0);
    }),
    { numRuns: 300 },
  );
});

test('a chain of whole-file edits keeps each version of the file once in memory', async () => {
  // 60 edits of a 100 KB file, each sent whole, the old text as its own copy (as each message is
  // parsed on its own): 12 MB of texts, 6 MB of versions.
  const lines = Array.from({ length: 1_400 }, (_, n) => `export const value${n} = compute(${n}, 'original'); // a line of the file\n`);
  const version = (i: number) => lines.map((line, n) => (n === i ? `// edit ${i}\n` : line)).join('');
  const before = await settledHeap();
  const t = new Transcript();
  for (let i = 1; i <= 60; i++) t.apply(call(`e${i}`, [diff('/w/f.ts', version(i), copyOf(version(i - 1)))]));
  const grown = (await settledHeap()) - before;
  assert.equal(t.diffSource(0, 0)?.newText, t.diffSource(1, 0)?.oldText);
  assert.ok(grown < 9_000_000, `the heap grew by ${(grown / 1e6).toFixed(1)} MB for 6 MB of versions`);
});

test('two edits of one call from the same kept text: one shares it, the other pays for it, and what is kept stays counted when that text\'s first diff goes', () => {
  const [v0, v1] = ['0', '1'].map((c) => c.repeat(30));
  const texts = new DiffTexts(200);
  texts.set('a', [{ path: '/w/f.ts', oldText: v0, newText: v1 }]);
  texts.set('b', [
    { path: '/w/f.ts', oldText: copyOf(v1), newText: 'x'.repeat(30) },
    { path: '/w/f.ts', oldText: copyOf(v1), newText: 'y'.repeat(30) },
  ]);
  assert.equal(texts.keptChars, 150, 'a: v0 v1; b: x, then y and v1 again');
  // The one that pays for itself goes first, then the diff whose text the other shares.
  texts.set('b', [{ path: '/w/f.ts', oldText: copyOf(v1), newText: 'x'.repeat(30) }]);
  assert.equal(texts.keptChars, 90);
  texts.set('a', []);
  assert.equal(texts.keptChars, 60, 'b\'s x, and v1, charged to it now');
  assert.equal(texts.source('b', 0)?.oldText, v1);
});
