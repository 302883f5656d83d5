// The transcript model, tested by rendering it to text (Zed's habit): each test states the
// transcript a user would see after a sequence of session/updates.
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { diffArrays, diffLines } from 'diff';
import { SessionUpdateSchema } from '../../src/protocol';
import { Transcript } from '../../src/session/transcript';
import { DIFF_PREVIEW_LINES, PREVIEW_LINE_CHARS, deferredSummary, summariseDiff } from '../../src/session/diffSummary';
import { EntryViewSchema } from '../../src/webview-protocol/entries';
import type { EntryView, ToolContentView } from '../../src/webview-protocol/entries';
import { sliceLines } from '../../src/workspace/lines';

function render(entries: readonly EntryView[]): string {
  return entries
    .map((e) => {
      switch (e.kind) {
        case 'user':
        case 'agent':
        case 'thought':
          return `${e.kind}: ${e.text}`;
        case 'tool':
          return `tool ${e.toolCallId} [${e.status}] ${e.title} (${e.toolKind})${e.locations.map((l) => ` @${l.path}:${l.line}`).join('')}${e.content.map((c) => ` {${contentLine(c)}}`).join('')}${e.permission ? ` ask:${e.permission.map((o) => o.optionId).join('/')}` : ''}${e.permissionAnswer ? ` answered:${e.permissionAnswer.outcome === 'selected' ? e.permissionAnswer.name : 'cancelled'}` : ''}`;
        case 'plan':
          return `plan: ${e.entries.map((p) => `${p.content}=${p.status}`).join(', ')}`;
        case 'turnEnd':
          return `end: ${e.stopReason}${e.error ? ` (${e.error.code}: ${e.error.message})` : ''}`;
        case 'error':
          return `error: ${e.message}`;
      }
    })
    .join('\n');
}

function contentLine(c: ToolContentView): string {
  switch (c.type) {
    case 'text':
      return c.text;
    case 'diff':
      return `diff ${c.path}${c.isNewFile ? ' (new)' : ''} +${c.added} -${c.removed}: ${c.preview.join(' ')}${c.previewTruncated ? ' …' : ''}`;
    case 'terminal':
      return `terminal ${c.terminalId}: ${JSON.stringify(c.output)}${c.truncated ? ' (truncated)' : ''}${c.exitStatus ? ` exit ${c.exitStatus.exitCode ?? c.exitStatus.signal}` : ''}`;
  }
}

function fold(updates: unknown[]): Transcript {
  const t = new Transcript();
  for (const u of updates) t.apply(SessionUpdateSchema.parse(u));
  return t;
}

const text = (sessionUpdate: string, s: string) => ({ sessionUpdate, content: { type: 'text', text: s } });

test('chunks of the same kind coalesce; a different kind starts a new entry', () => {
  const t = fold([text('agent_thought_chunk', 'hm'), text('agent_thought_chunk', 'm'), text('agent_message_chunk', 'Hel'), text('agent_message_chunk', 'lo')]);
  assert.equal(render(t.entries), 'thought: hmm\nagent: Hello');
});

test('tool_call is an upsert, tool_call_update merges only the fields present, arrays replace', () => {
  const t = fold([
    { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'placeholder' },
    { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Read x', kind: 'read', status: 'pending', locations: [{ path: '/w/x', line: 1 }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'in_progress' },
    { sessionUpdate: 'tool_call_update', toolCallId: 'a', locations: [{ path: '/w/y', line: 9 }], content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] },
  ]);
  assert.equal(render(t.entries), 'tool a [in_progress] Read x (read) @/w/y:9 {ok}');
});

test('an update for a tool call never announced becomes a visible entry', () => {
  const t = fold([{ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'completed' }]);
  assert.equal(render(t.entries), 'tool ghost [completed] Tool call (other)');
});

test('a plan is replaced wholesale, in place', () => {
  const entry = (content: string, status: string) => ({ content, status, priority: 'high' });
  const t = fold([
    { sessionUpdate: 'plan', entries: [entry('a', 'pending'), entry('b', 'pending')] },
    text('agent_message_chunk', 'working'),
    { sessionUpdate: 'plan', entries: [entry('a', 'completed')] },
  ]);
  assert.equal(render(t.entries), 'plan: a=completed\nagent: working');
});

test('chunks with different messageIds are different messages; without ids they coalesce', () => {
  const chunk = (s: string, messageId?: string) => ({ ...text('agent_message_chunk', s), ...(messageId ? { messageId } : {}) });
  const t = fold([chunk('a', 'm1'), chunk('b', 'm1'), chunk('c', 'm2'), chunk('d'), chunk('')]);
  assert.equal(render(t.entries), 'agent: ab\nagent: cd');
});

test('non-text content in chunks shows as a placeholder, never as nothing', () => {
  const t = fold([{ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }]);
  assert.equal(render(t.entries), 'agent: [image]');
});

test('a diff becomes a summary with counted lines; the full texts stay for the diff editor', () => {
  const t = fold([
    { sessionUpdate: 'tool_call', toolCallId: 'e', title: 'Edit', kind: 'edit', content: [{ type: 'diff', path: '/w/a.ts', oldText: 'one\ntwo\nthree\n', newText: 'one\n2\nthree\nfour\n' }] },
    { sessionUpdate: 'tool_call', toolCallId: 'n', title: 'Create', kind: 'edit', content: [{ type: 'text', text: 'creating' }, { type: 'diff', path: '/w/b.ts', newText: 'x\n' }] },
  ]);
  assert.equal(render(t.entries), 'tool e [pending] Edit (edit) {diff /w/a.ts +2 -1: -two +2 +four}\ntool n [pending] Create (edit) {creating} {diff /w/b.ts (new) +1 -0: +x}');
  assert.deepEqual(t.diffSource(0, 0), { path: '/w/a.ts', oldText: 'one\ntwo\nthree\n', newText: 'one\n2\nthree\nfour\n' });
  assert.deepEqual(t.diffSource(1, 1), { path: '/w/b.ts', oldText: null, newText: 'x\n' });
  assert.equal(t.diffSource(1, 0), undefined, 'text content has no diff');
  assert.equal(t.diffSource(5, 0), undefined);
});

test('a diff preview is bounded in lines and in line length', () => {
  const newText = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n') + '\n' + 'x'.repeat(100_000);
  const t = fold([{ sessionUpdate: 'tool_call', toolCallId: 'big', title: 'Big', content: [{ type: 'diff', path: '/w/big', oldText: '', newText }] }]);
  const entry = t.entries[0];
  assert.ok(entry.kind === 'tool' && entry.content[0].type === 'diff');
  const diff = entry.content[0];
  assert.equal(diff.added, 101);
  assert.equal(diff.preview.length, 40);
  assert.equal(diff.previewTruncated, true);
  assert.ok(diff.preview.every((line) => line.length <= 401));
});

test('a streamed entry read midway keeps its text; the next read has every chunk since', () => {
  const t = new Transcript();
  const chunks = Array.from({ length: 300 }, (_, i) => `${i} `);
  const textOf = (entry: EntryView) => (entry.kind === 'agent' ? entry.text : assert.fail(entry.kind));
  t.apply(SessionUpdateSchema.parse(text('agent_message_chunk', chunks[0])));
  let seen = t.entries[0];
  let seenText = chunks[0];
  for (let i = 1; i < chunks.length; i++) {
    t.apply(SessionUpdateSchema.parse(text('agent_message_chunk', chunks[i])));
    if (i % 97 !== 0) continue;
    assert.equal(textOf(seen), seenText, 'an entry handed out never changes');
    seen = t.entries[0];
    seenText = chunks.slice(0, i + 1).join('');
    assert.equal(textOf(seen), seenText);
  }
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A' }));
  t.apply(SessionUpdateSchema.parse(text('agent_message_chunk', 'next')));
  assert.equal(render(t.entries), `agent: ${chunks.join('')}\ntool a [pending] A (other)\nagent: next`);
});

test('a user prompt on screen takes the chunks of a replayed user message', () => {
  const t = new Transcript();
  t.addUserPrompt('look at', [{ kind: 'file', label: 'a.ts' }]);
  t.apply(SessionUpdateSchema.parse(text('user_message_chunk', ' this')));
  assert.deepEqual(t.entries[0], { kind: 'user', text: 'look at this', attachments: [{ kind: 'file', label: 'a.ts' }] });
});

test('a tool call update that repeats a diff keeps its summary; a changed diff is summarised again', () => {
  const diff = (newText: string) => ({ type: 'diff', path: '/w/a.ts', oldText: 'one\n', newText });
  const t = fold([{ sessionUpdate: 'tool_call', toolCallId: 'e', title: 'Edit', kind: 'edit', content: [diff('two\n')] }]);
  const card = (): ToolContentView => (t.entries[0].kind === 'tool' ? t.entries[0].content.at(-1)! : assert.fail('not a tool'));
  const first = card();
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 'e', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'done' } }, diff('two\n')] }));
  assert.equal(card(), first, 'the same summary object');
  assert.deepEqual(t.diffSource(0, 1), { path: '/w/a.ts', oldText: 'one\n', newText: 'two\n' });
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 'e', content: [diff('three\n')] }));
  assert.equal(render(t.entries), 'tool e [completed] Edit (edit) {diff /w/a.ts +1 -1: -one +three}');
});

/**
 * A card's summary as it must be: jsdiff's line counts for the whole texts (a shortest line
 * diff), and the preview of jsdiff's line diff between the lines the texts begin and end with
 * (whole lines, line endings included, found line by line rather than as summariseDiff does),
 * each cut at the preview's length.
 */
const reference = (oldText: string, newText: string) => {
  let added = 0;
  let removed = 0;
  for (const change of diffLines(oldText, newText)) {
    if (change.added) added += change.count ?? 0;
    else if (change.removed) removed += change.count ?? 0;
  }
  const lines = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const [a, b] = [lines(oldText), lines(newText)];
  let start = 0;
  while (start < Math.min(a.length, b.length) && a[start] === b[start]) start++;
  let end = 0;
  while (end < Math.min(a.length, b.length) - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const preview: string[] = [];
  for (const change of diffArrays(a.slice(start, a.length - end), b.slice(start, b.length - end))) {
    if (change.added || change.removed) preview.push(...change.value.map((line) => (change.added ? '+' : '-') + line.replace(/\n$/, '').slice(0, PREVIEW_LINE_CHARS)));
  }
  return { added, removed, preview: preview.slice(0, DIFF_PREVIEW_LINES) };
};

test('diff summaries are the ones a line diff (jsdiff diffLines) gives, line endings and all', () => {
  // Every text of up to two lines, with each line ending: the cases where line diffs differ.
  const lines = ['a', 'b', ''].flatMap((line) => ['\n', '\r\n', ''].map((end) => line + end));
  const texts = [...new Set(['', ...lines, ...lines.flatMap((first) => lines.map((second) => first + second))])];
  for (const oldText of texts) {
    for (const newText of texts) {
      const { added, removed, preview } = summariseDiff('p', oldText, newText);
      assert.deepEqual({ added, removed, preview }, reference(oldText, newText), JSON.stringify({ oldText, newText }));
    }
  }
});

test('diff summaries of longer texts, edited anywhere, are still the line diff’s (the common start and end are not diffed)', () => {
  // Long lines (one of 32 to 640 characters, or more where a line without an end runs into the
  // next) are cut in the preview.
  const line = fc
    .tuple(fc.oneof(fc.constantFrom('a', 'b', 'c', ''), fc.integer({ min: 1, max: 20 }).map((n) => 'a long line that repeats itself '.repeat(n))), fc.constantFrom('\n', '\r\n', ''))
    .map(([text, end]) => text + end);
  const text = (maxLines: number) => fc.array(line, { maxLength: maxLines, size: 'max' }).map((lines) => lines.join(''));
  // A shared start and end, often none, often past a block of 1024 characters, and texts that differ between them.
  const shared = fc.oneof(fc.constant(''), text(200));
  fc.assert(
    fc.property(shared, shared, text(8), text(8), (start, end, middle, otherMiddle) => {
      const oldText = start + middle + end;
      const newText = start + otherMiddle + end;
      const { added, removed, preview } = summariseDiff('p', oldText, newText);
      assert.deepEqual({ added, removed, preview }, reference(oldText, newText));
    }),
    { numRuns: 3000 },
  );
});

test('a card\'s summary, computed when first read, reads the same every way the panel, the save and the export read it', () => {
  const oldText = Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join('');
  const newText = oldText.replace('line 10\n', 'line ten\n').replace('line 150\n', '');
  for (const [before, after] of [[oldText, newText], [null, newText], ['', '']] as const) {
    const eager = summariseDiff('/w/a.ts', before, after);
    assert.deepEqual({ ...deferredSummary('/w/a.ts', before, after) }, eager, 'a spread');
    assert.equal(JSON.stringify(deferredSummary('/w/a.ts', before, after)), JSON.stringify(eager), 'JSON');
    assert.deepEqual(deferredSummary('/w/a.ts', before, after), eager, 'property by property');
    const card = (content: unknown) => EntryViewSchema.parse({ kind: 'tool', toolCallId: 'e', title: 'Edit', toolKind: 'edit', status: 'completed', content: [content], locations: [] });
    assert.deepEqual(card(deferredSummary('/w/a.ts', before, after)), card(eager), 'zod (what the panel is posted)');
  }
  const lazy = deferredSummary('/w/a.ts', oldText, newText);
  assert.equal(lazy.preview, lazy.preview, 'computed once: the same preview array every time');
  assert.deepEqual([lazy.added, lazy.removed, lazy.preview], [1, 2, ['-line 10', '+line ten', '-line 150']]);
});

test('terminal output reaches every card embedding the terminal, also cards that embed it later', () => {
  const t = fold([{ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', kind: 'execute', content: [{ type: 'terminal', terminalId: 'term-1' }] }]);
  t.tools.updateTerminal('term-1', { output: 'hello\n', truncated: false, exitStatus: null });
  t.tools.updateTerminal('term-2', { output: 'other', truncated: false, exitStatus: null });
  assert.equal(render(t.entries), 'tool run [pending] Run (execute) {terminal term-1: "hello\\n"}');
  t.tools.updateTerminal('term-1', { output: 'lo\nbye\n', truncated: true, exitStatus: { exitCode: 0, signal: null } });
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 'again', title: 'Again', content: [{ type: 'terminal', terminalId: 'term-1' }] }));
  assert.equal(
    render(t.entries),
    'tool run [pending] Run (execute) {terminal term-1: "lo\\nbye\\n" (truncated) exit 0}\ntool again [pending] Again (other) {terminal term-1: "lo\\nbye\\n" (truncated) exit 0}',
  );
});

test('terminal output reaches the cards embedding the terminal now: not one whose content moved on, and those of a restored transcript', () => {
  const t = fold([
    { sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', kind: 'execute', content: [{ type: 'terminal', terminalId: 'term-1' }] },
    { sessionUpdate: 'tool_call', toolCallId: 'moved', title: 'Moved', kind: 'execute', content: [{ type: 'terminal', terminalId: 'term-1' }] },
    { sessionUpdate: 'tool_call_update', toolCallId: 'moved', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] },
  ]);
  t.tools.updateTerminal('term-1', { output: 'one\n', truncated: false, exitStatus: null });
  assert.equal(render(t.entries), 'tool run [pending] Run (execute) {terminal term-1: "one\\n"}\ntool moved [pending] Moved (execute) {done}');
  const restored = new Transcript();
  restored.restore(t.entries);
  restored.tools.updateTerminal('term-1', { output: 'two\n', truncated: false, exitStatus: null });
  assert.equal(render(restored.entries), 'tool run [unfinished] Run (execute) {terminal term-1: "two\\n"}\ntool moved [unfinished] Moved (execute) {done}');
});

test('clear drops every entry and says so', () => {
  const t = fold([text('agent_message_chunk', 'old'), { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A' }]);
  const events: string[] = [];
  t.onChange((e) => events.push(e.type));
  t.clear();
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' }));
  assert.deepEqual(events, ['reset', 'added']);
  assert.equal(render(t.entries), 'tool a [completed] Tool call (other)', 'the old call id no longer points at an old entry');
});

test('session state updates and unknown kinds add no entries', () => {
  const t = new Transcript();
  assert.equal(t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'available_commands_update', availableCommands: [] })), false);
  assert.equal(t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'brand_new_kind', x: 1 })), false);
  assert.equal(t.entries.length, 0);
});

test('a permission request creates the call it names; the end of a turn marks its running calls unfinished, not those of a question asked between turns', () => {
  const t = new Transcript();
  const allow = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' as const }];
  void t.questions.askPermission({ toolCallId: 'between', title: 'Deploy' }, allow);
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 'background', title: 'Index', status: 'in_progress' }));
  const turn = t.beginTurn();
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'Run', status: 'in_progress' }));
  void t.questions.askPermission({ toolCallId: 'edit', title: 'Edit y' }, allow);
  assert.equal(render(t.entries), 'tool between [pending] Deploy (other) ask:ok\ntool background [in_progress] Index (other)\ntool run [in_progress] Run (other)\ntool edit [pending] Edit y (other) ask:ok');
  t.endTurn({ stopReason: 'failed', error: { message: 'Internal error', code: -32603 } }, turn);
  assert.equal(
    render(t.entries),
    'tool between [pending] Deploy (other) ask:ok\ntool background [in_progress] Index (other)\ntool run [unfinished] Run (other)\ntool edit [unfinished] Edit y (other) answered:cancelled\nend: failed (-32603: Internal error)',
  );
  t.endTurn({ stopReason: 'end_turn' }, turn);
  assert.equal(t.entries.length, 5, 'a turn that is over already is left alone');
});

test('entries report what changed, by index', () => {
  const t = new Transcript();
  const events: string[] = [];
  t.onChange((e) => events.push(e.type === 'reset' ? e.type : `${e.type}:${e.index}${e.type === 'appended' ? `+${e.text}` : ''}`));
  t.addUserPrompt('hi');
  t.apply(SessionUpdateSchema.parse(text('agent_message_chunk', 'a')));
  t.apply(SessionUpdateSchema.parse(text('agent_message_chunk', 'b')));
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T' }));
  t.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
  assert.deepEqual(events, ['added:0', 'added:1', 'appended:1+b', 'added:2', 'updated:2']);
});

test('read windows: 1-based line, limit in lines, 0 or null from the start', () => {
  const file = 'one\ntwo\nthree\nfour';
  assert.equal(sliceLines(file, 0, undefined), file);
  assert.equal(sliceLines(file, 1, 1), 'one\n');
  assert.equal(sliceLines(file, 2, 2), 'two\nthree\n');
  assert.equal(sliceLines(file, 4, 10), 'four');
  assert.equal(sliceLines(file, 9, 1), '');
});

test('a saved transcript is restored without what waited for an answer; later updates still find its tool calls', () => {
  const saved = fold([
    text('agent_message_chunk', 'working on it'),
    { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit', kind: 'edit', status: 'in_progress' },
    { sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Read', kind: 'read', status: 'completed' },
  ]);
  saved.questions.askPermission({ toolCallId: 't1' }, [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }]);
  saved.questions.addElicitation({ requestKey: 'e1', agentName: 'A', message: 'Name?', title: null, toolCallId: null, fields: [] });
  const restored = new Transcript();
  const events: string[] = [];
  restored.onChange((e) => events.push(e.type));
  restored.restore(JSON.parse(JSON.stringify(saved.entries)) as EntryView[]);
  assert.deepEqual(events.at(-1), 'reset', 'the view takes it as a new snapshot');
  const [message, edit, read, form] = restored.entries;
  assert.deepEqual(message, { kind: 'agent', text: 'working on it' });
  assert.ok(edit.kind === 'tool' && edit.status === 'unfinished' && edit.permission === undefined);
  assert.ok(read.kind === 'tool' && read.status === 'completed');
  assert.ok(form.kind === 'elicitation' && form.state === 'cancelled');

  for (const update of [{ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }]) restored.apply(SessionUpdateSchema.parse(update));
  assert.equal(restored.entries.length, 4, 'the update patched the restored call');
  assert.ok(restored.entries[1].kind === 'tool' && restored.entries[1].status === 'completed');
});
