// Prompt context → content blocks, for every combination of the agent's promptCapabilities:
// every prompt produced is a valid PromptRequest of the official schema, and nothing is dropped
// without saying so (an image for an agent without image support comes back as refused).
import test from 'node:test';
import assert from 'node:assert/strict';
import { attachmentLabel, attachmentView, base64Bytes, MAX_EMBED_BYTES, promptBlocks, promptCaps, refusal, sameTarget } from '../../src/session/attachments';
import type { Attachment, EmbedReader, PromptCaps } from '../../src/session/attachments';
import { excludedSegments, mentionCandidates } from '../../src/workspace/mentionCandidates';
import { ViewToHostSchema } from '../../src/webview-protocol/messages';
import { assertSpecValid } from './helpers/officialSchema';

const FILE: Attachment = { id: 'a1', kind: 'file', uri: 'file:///w/src/a.ts', name: 'a.ts', path: 'src/a.ts' };
const BINARY: Attachment = { id: 'a2', kind: 'file', uri: 'file:///w/logo.bin', name: 'logo.bin', path: 'logo.bin' };
const FOLDER: Attachment = { id: 'a3', kind: 'folder', uri: 'file:///w/src', name: 'src', path: 'src' };
const SELECTION: Attachment = { id: 'a4', kind: 'selection', uri: 'file:///w/src/a.ts', name: 'a.ts', path: 'src/a.ts', startLine: 3, endLine: 5, text: 'let x = 1;\nlet y = 2;\nlet z = 3;' };
const IMAGE: Attachment = { id: 'a5', kind: 'image', name: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const ALL = [FILE, BINARY, FOLDER, SELECTION, IMAGE];

/** The fake host reader: a.ts is text; anything else cannot be embedded (binary, too large, outside). */
const reads: { uri: string; maxBytes: number }[] = [];
const read: EmbedReader = async (uri, maxBytes) => {
  reads.push({ uri, maxBytes });
  return uri === FILE.uri ? 'export const a = 1;\n' : undefined;
};

const combos: PromptCaps[] = [];
for (const image of [false, true]) for (const embeddedContext of [false, true]) for (const audio of [false, true]) combos.push({ image, audio, embeddedContext });

for (const caps of combos) {
  test(`blocks for image=${caps.image} embeddedContext=${caps.embeddedContext} audio=${caps.audio}`, async () => {
    reads.length = 0;
    const { blocks, refused } = await promptBlocks('explain', ALL, caps, read);
    assertSpecValid('PromptRequest', { sessionId: 's', prompt: blocks });
    assert.deepEqual(blocks[0], { type: 'text', text: 'explain' });

    // Only what the capabilities allow: text and resource_link always, the rest gated (ACP §5).
    for (const b of blocks) {
      if (b.type === 'resource') assert.ok(caps.embeddedContext, 'resource only with embeddedContext');
      if (b.type === 'image') assert.ok(caps.image, 'image only with image');
      assert.notEqual(b.type, 'audio');
    }
    assert.deepEqual(reads.map((r) => r.maxBytes), caps.embeddedContext ? [MAX_EMBED_BYTES, MAX_EMBED_BYTES] : [], 'files are read only to embed them, up to 1 MB');

    const rest = blocks.slice(1);
    if (caps.embeddedContext) {
      assert.deepEqual(rest.slice(0, 4), [
        { type: 'resource', resource: { uri: FILE.uri, text: 'export const a = 1;\n' } },
        { type: 'resource_link', uri: BINARY.uri, name: 'logo.bin' }, // not text: linked, not dropped
        { type: 'resource_link', uri: FOLDER.uri, name: 'src' },
        { type: 'resource', resource: { uri: 'file:///w/src/a.ts#L3-L5', text: 'let x = 1;\nlet y = 2;\nlet z = 3;' } },
      ]);
    } else {
      assert.deepEqual(rest.slice(0, 5), [
        { type: 'resource_link', uri: FILE.uri, name: 'src/a.ts' },
        { type: 'resource_link', uri: BINARY.uri, name: 'logo.bin' },
        { type: 'resource_link', uri: FOLDER.uri, name: 'src' },
        { type: 'resource_link', uri: FILE.uri, name: 'src/a.ts' },
        { type: 'text', text: '(Selected: lines 3–5 of src/a.ts)' },
      ]);
    }
    if (caps.image) {
      assert.deepEqual(blocks.at(-1), { type: 'image', data: IMAGE.data, mimeType: 'image/png' });
      assert.deepEqual(refused, []);
    } else {
      assert.deepEqual(refused, [IMAGE], 'an image the agent cannot take is reported, never dropped silently');
      assert.match(refusal('image', caps, 'Demo agent') ?? '', /Demo agent does not accept images/);
    }
    for (const kind of ['file', 'folder', 'selection'] as const) assert.equal(refusal(kind, caps, 'X'), undefined, `${kind} always goes (as a link at least)`);
  });
}

test('a reader that fails is a link, not a failed prompt', async () => {
  const { blocks } = await promptBlocks('x', [FILE], { image: false, audio: false, embeddedContext: true }, async () => {
    throw new Error('EACCES');
  });
  assert.deepEqual(blocks.at(-1), { type: 'resource_link', uri: FILE.uri, name: 'src/a.ts' });
  const noReader = await promptBlocks('x', [FILE], { image: false, audio: false, embeddedContext: true }, undefined);
  assert.equal(noReader.blocks.at(-1)?.type, 'resource_link');
});

test('promptCaps: missing means false (ACP §5)', () => {
  assert.deepEqual(promptCaps(undefined), { image: false, audio: false, embeddedContext: false });
  assert.deepEqual(promptCaps({ image: true }), { image: true, audio: false, embeddedContext: false });
});

test('chips and transcript labels say what and where, never the content', () => {
  assert.deepEqual(attachmentView(FILE), { id: 'a1', kind: 'file', label: 'a.ts', detail: 'src', problem: null });
  assert.deepEqual(attachmentView(FOLDER), { id: 'a3', kind: 'folder', label: 'src/', detail: null, problem: null });
  assert.deepEqual(attachmentView(SELECTION), { id: 'a4', kind: 'selection', label: 'a.ts:3-5', detail: 'src/a.ts', problem: null });
  assert.deepEqual(attachmentView({ ...SELECTION, endLine: 3 }).label, 'a.ts:3');
  assert.deepEqual(attachmentView(IMAGE, 'no images'), { id: 'a5', kind: 'image', label: 'shot.png', detail: 'image/png, 8 B', problem: 'no images' });
  assert.deepEqual(attachmentLabel(SELECTION), { kind: 'selection', label: 'a.ts:3-5' });
  assert.equal(base64Bytes('iVBORw0KGgo='), 8);
});

test('the same file, range or image twice is one attachment', () => {
  assert.ok(sameTarget(FILE, { ...FILE, name: 'renamed' }));
  assert.ok(!sameTarget(FILE, FOLDER));
  assert.ok(!sameTarget(SELECTION, { ...SELECTION, startLine: 1 }));
  assert.ok(sameTarget(IMAGE, { ...IMAGE, name: 'again.png' }));
});

test('attachImage is validated: image types only, base64 only, at most 5 MB', () => {
  const ok = { type: 'attachImage', mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'a.png' };
  assert.ok(ViewToHostSchema.safeParse(ok).success);
  assert.ok(!ViewToHostSchema.safeParse({ ...ok, mimeType: 'image/svg+xml' }).success, 'SVG (scriptable) is refused');
  assert.ok(!ViewToHostSchema.safeParse({ ...ok, data: 'not base64!' }).success);
  assert.ok(!ViewToHostSchema.safeParse({ ...ok, data: 'A'.repeat(7_000_000) }).success, 'over 5 MB');
  assert.ok(ViewToHostSchema.safeParse({ ...ok, data: 'A'.repeat(6_990_000) }).success, 'just under 5 MB');
  assert.ok(!ViewToHostSchema.safeParse({ ...ok, name: '' }).success);
});

test('mention candidates: files (open ones first) then the folders holding them; excluded names never offered', () => {
  const files = ['src/b.ts', 'src/a.ts', 'README.md', 'node_modules/x/index.js', 'src/deep/c.ts'].map((p) => ({ uri: `file:///w/${p}`, path: p }));
  const excluded = excludedSegments({ '**/node_modules': true, '**/bower_components': false, '**/*.code-search': true, 'dist/**': true });
  assert.deepEqual([...excluded], ['node_modules']);
  const items = mentionCandidates(files, excluded, new Set(['file:///w/src/b.ts']));
  assert.deepEqual(
    items.map((i) => `${i.kind} ${i.path} ${i.uri} [${i.name} in ${i.parent}]`),
    [
      'file src/b.ts file:///w/src/b.ts [b.ts in src]',
      'file README.md file:///w/README.md [README.md in ]',
      'file src/a.ts file:///w/src/a.ts [a.ts in src]',
      'file src/deep/c.ts file:///w/src/deep/c.ts [c.ts in src/deep]',
      'folder src file:///w/src [src in ]',
      'folder src/deep file:///w/src/deep [deep in src]',
    ],
  );
});
