// ACP: Export Conversation as Markdown: the transcript's entries as one Markdown document. The
// output is parsed back with markdown-it (a CommonMark parser) to check its structure survives
// hostile content, not just string matches.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { conversationMarkdown, fence } from '../../src/view/exportMarkdown';
import type { ConversationExport } from '../../src/view/exportMarkdown';
import type { Entry } from '../../src/session/model';

const md = new MarkdownIt();

function exported(entries: Entry[], diffs: Record<string, { oldText: string | null; newText: string; path: string }> = {}): string {
  const source: ConversationExport = {
    title: 'Fix the build',
    agentName: 'Demo agent',
    date: '2026-01-02T03:04:05.000Z',
    roots: ['/work/project'],
    entries,
    diffSource: (index, contentIndex) => diffs[`${index}:${contentIndex}`],
  };
  return conversationMarkdown(source);
}

/** The fenced blocks of a document, as a CommonMark parser reads them. */
function fences(text: string): { info: string; content: string }[] {
  return md.parse(text, {}).filter((t) => t.type === 'fence').map((t) => ({ info: t.info, content: t.content }));
}

function headings(text: string): string[] {
  const tokens = md.parse(text, {});
  return tokens.flatMap((t, i) => (t.type === 'heading_open' ? [`${t.tag} ${tokens[i + 1].content}`] : []));
}

describe('conversation export', () => {
  test('header, the user and the agent in order, the agent markdown as it is, a thought quoted, the turn end with its usage', () => {
    const text = exported([
      { kind: 'user', text: 'Why does it fail?', attachments: [{ kind: 'file', label: 'src/app.ts' }] },
      { kind: 'thought', text: 'Look at the log.\nThen the config.' },
      { kind: 'agent', text: 'It fails because of **this**:\n\n- one\n- two' },
      { kind: 'turnEnd', stopReason: 'end_turn', usage: { tokens: { total: 1234, input: 1000, output: 234, thought: null, cachedRead: null, cachedWrite: null }, cost: { amount: 0.42, currency: 'USD' }, quota: null } },
    ]);
    assert.deepEqual(headings(text), ['h1 Fix the build', 'h2 You', 'h2 Demo agent']);
    assert.match(text, /- Agent: Demo agent\n- Exported: 2026-01-02T03:04:05.000Z/);
    assert.match(text, /Why does it fail\?\n\n- Attached file: src\/app.ts/);
    assert.match(text, /> \*\*Thinking\*\*\n>\n> Look at the log.\n> Then the config./);
    assert.match(text, /It fails because of \*\*this\*\*:\n\n- one\n- two/);
    assert.match(text, /\*Turn ended · 1234 tokens \(in 1000, out 234\) · 0.42 USD\*\n\n---/);
    assert.ok(text.indexOf('Why does it fail') < text.indexOf('Look at the log') && text.indexOf('Look at the log') < text.indexOf('It fails'));
  });

  test('a tool call: title, kind, status, locations relative to the root, the permission chosen, its output fenced', () => {
    const text = exported([
      {
        kind: 'tool',
        toolCallId: 't1',
        title: 'Read\nconfig',
        toolKind: 'read',
        status: 'completed',
        locations: [{ path: '/work/project/src/config.ts', line: 3 }, { path: '/elsewhere/x.ts', line: null }],
        content: [{ type: 'text', text: 'contents' }, { type: 'terminal', terminalId: 'term', output: 'npm ok\n', truncated: true, exitStatus: { exitCode: 0, signal: null } }],
        permissionAnswer: { outcome: 'selected', name: 'Allow once', kind: 'allow_once' },
      },
    ]);
    assert.deepEqual(headings(text), ['h1 Fix the build', 'h3 Tool: Read config']);
    assert.match(text, /- Kind: read\n- Status: completed\n- Locations: `src\/config.ts:3`, `\/elsewhere\/x.ts`\n- Permission: Allow once \(allow_once\)/);
    assert.deepEqual(fences(text), [
      { info: '', content: 'contents\n' },
      { info: 'text', content: 'npm ok\n' },
    ]);
    assert.match(text, /Terminal \(exit 0\), earlier output truncated:/);
  });

  test('a diff is a unified diff of its full texts (the diff package), paths relative; without the texts, the preview the card showed', () => {
    const tool: Entry = {
      kind: 'tool',
      toolCallId: 't2',
      title: 'Edit',
      toolKind: 'edit',
      status: 'completed',
      locations: [],
      content: [
        { type: 'diff', path: '/work/project/a.ts', isNewFile: false, added: 1, removed: 1, preview: ['-old', '+new'], previewTruncated: false },
        { type: 'diff', path: '/work/project/b.ts', isNewFile: true, added: 1, removed: 0, preview: ['+b'], previewTruncated: true, textsDropped: true },
      ],
    };
    const text = exported([tool], { '0:0': { path: '/work/project/a.ts', oldText: 'keep\nold\n', newText: 'keep\nnew\n' } });
    const [full, preview] = fences(text);
    assert.equal(full.info, 'diff');
    assert.equal(full.content, '--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n');
    assert.equal(preview.info, 'diff');
    assert.equal(preview.content, '--- a/b.ts\n+++ b/b.ts\n+b\n…\n');
    assert.match(text, /`b.ts`: \+1 −0 \(new file\), changed lines only:/);
  });

  test('output holding ``` (and longer runs) stays one block with its text intact: the fence is longer than any run inside', () => {
    const hostile = 'before\n```\nnot the end\n`````\n## not a heading\n````js\nafter';
    const text = exported([{ kind: 'tool', toolCallId: 't', title: 'Run', toolKind: 'execute', status: 'completed', locations: [], content: [{ type: 'text', text: hostile }] }]);
    assert.deepEqual(fences(text), [{ info: '', content: `${hostile}\n` }]);
    assert.deepEqual(headings(text), ['h1 Fix the build', 'h3 Tool: Run']);
    assert.ok(text.includes('``````\nbefore'), 'six backticks: one more than the longest run');
  });

  test('an answer cut off inside a code block is closed: what follows is not swallowed', () => {
    const text = exported([
      { kind: 'agent', text: 'Here:\n\n````ts\nconst a = 1;\n```\nstill code' },
      { kind: 'user', text: 'And then?' },
    ]);
    assert.deepEqual(fences(text), [{ info: 'ts', content: 'const a = 1;\n```\nstill code\n' }]);
    assert.deepEqual(headings(text), ['h1 Fix the build', 'h2 Demo agent', 'h2 You']);
  });

  test('agent strings cannot add structure through one-line fields: a newline in a title, a plan item, an error is flattened', () => {
    const text = exported([
      { kind: 'plan', entries: [{ content: 'Read\n# injected', priority: 'high', status: 'completed' }, { content: 'Write', priority: 'low', status: 'in_progress' }, { content: 'Test', priority: 'low', status: 'pending' }] },
      { kind: 'error', message: 'bad\n\n# injected' },
      { kind: 'tool', toolCallId: 'x', title: 'a\n# injected', toolKind: 'other', status: 'failed', locations: [{ path: '/work/project/`odd`.ts', line: null }], content: [], permission: [{ optionId: 'o', name: 'Allow', kind: 'allow_once' }] },
    ]);
    assert.deepEqual(headings(text), ['h1 Fix the build', 'h3 Tool: a # injected']);
    assert.match(text, /- \[x\] Read # injected\n- \[ \] Write \*\(in progress\)\*\n- \[ \] Test/);
    assert.match(text, /- Locations: `` `odd`.ts ``/);
    assert.match(text, /- Permission asked: Allow \(not answered\)/);
  });

  test('fence: at least three backticks, one more than the longest run, and the text ends with a newline before it', () => {
    assert.equal(fence('x', 'ts'), '```ts\nx\n```');
    assert.equal(fence('a ```` b\n', ''), '`````\na ```` b\n`````');
    assert.equal(fence('', 'text'), '```text\n```');
  });

  test('a 20,000-entry transcript exports whole', () => {
    const entries: Entry[] = [];
    for (let i = 0; i < 10_000; i++) entries.push({ kind: 'user', text: `q${i}` }, { kind: 'agent', text: `a${i}` });
    const text = exported(entries);
    assert.equal(headings(text).length, 20_001);
  });
});
