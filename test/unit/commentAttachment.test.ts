// Review comments as prompt context: the blocks an agent gets (valid PromptRequests of the
// official schema, in the shape its promptCapabilities allow), the chip's words, and how a
// comment chip leaves the composer (sent with a prompt, or removed) so the host can mark or
// delete its thread.
import test from 'node:test';
import assert from 'node:assert/strict';
import { attachmentLabel, attachmentView, promptBlocks, sameTarget } from '../../src/session/attachments';
import type { Attachment } from '../../src/session/attachments';
import { commentBlocks, commentView } from '../../src/session/commentAttachment';
import type { ReviewComment } from '../../src/session/commentAttachment';
import { PromptAttachments } from '../../src/session/promptAttachments';
import type { Released } from '../../src/session/promptAttachments';
import { AttachmentViewSchema } from '../../src/webview-protocol/session';
import { assertSpecValid } from './helpers/officialSchema';

const COMMENT: ReviewComment = {
  id: 'a1',
  kind: 'comment',
  uri: 'file:///w/src/a.ts',
  name: 'a.ts',
  path: 'src/a.ts',
  startLine: 3,
  endLine: 4,
  comment: 'Use a Map here: the list is searched per update.',
  text: 'const xs = [];\nxs.find((x) => x.id === id);',
  side: 'current',
  threadId: 'c1',
};

test('a comment is a text block naming path, lines and what was said, then the lines embedded (embeddedContext)', async () => {
  const { blocks, refused } = await promptBlocks('please fix', [COMMENT], { image: false, audio: false, embeddedContext: true }, undefined);
  assert.deepEqual(refused, []);
  assertSpecValid('PromptRequest', { sessionId: 's', prompt: blocks });
  assert.deepEqual(blocks, [
    { type: 'text', text: 'please fix' },
    { type: 'text', text: 'Review comment on src/a.ts:3-4: Use a Map here: the list is searched per update.' },
    { type: 'resource', resource: { uri: 'file:///w/src/a.ts#L3-L4', text: 'const xs = [];\nxs.find((x) => x.id === id);' } },
  ]);
});

test('without embeddedContext the lines are a resource_link to the file (text and links are always allowed)', async () => {
  const { blocks } = await promptBlocks('', [COMMENT], { image: false, audio: false, embeddedContext: false }, undefined);
  assertSpecValid('PromptRequest', { sessionId: 's', prompt: blocks });
  assert.deepEqual(blocks, [
    { type: 'text', text: 'Review comment on src/a.ts:3-4: Use a Map here: the list is searched per update.' },
    { type: 'resource_link', uri: 'file:///w/src/a.ts', name: 'src/a.ts' },
  ]);
  assert.ok(!blocks.some((b) => b.type === 'resource'), 'no embedded resource without embeddedContext');
});

test('lines too large to embed, and the sides of a tool call’s proposed edit, say so', () => {
  assert.equal(commentBlocks({ ...COMMENT, text: '' }, true)[1].type, 'resource_link', 'no text to embed: linked');
  const [proposed] = commentBlocks({ ...COMMENT, side: 'proposed', startLine: 7, endLine: 7 }, false);
  assert.deepEqual(proposed, { type: 'text', text: 'Review comment on src/a.ts:7 (in your proposed edit): Use a Map here: the list is searched per update.' });
  const [replaced] = commentBlocks({ ...COMMENT, side: 'replaced' }, false);
  assert.match(replaced.type === 'text' ? replaced.text : '', /^Review comment on src\/a\.ts:3-4 \(in the text your proposed edit replaces\): /);
});

test('the chip: file, lines and the start of the comment; the whole comment and the path in its detail; a valid view', () => {
  const view = attachmentView(COMMENT);
  assert.deepEqual(view, {
    id: 'a1',
    kind: 'comment',
    label: 'a.ts:3-4 “Use a Map here: the list is searched per update.”',
    detail: 'src/a.ts: Use a Map here: the list is searched per update.',
    problem: null,
  });
  assert.ok(AttachmentViewSchema.safeParse(view).success);
  assert.deepEqual(attachmentLabel(COMMENT), { kind: 'comment', label: view.label });
  const long = commentView({ ...COMMENT, comment: `${'x'.repeat(60)} and more` });
  assert.equal(long.label, `a.ts:3-4 “${'x'.repeat(48)}…”`, 'clipped on the chip');
  assert.equal(commentView({ ...COMMENT, comment: 'first line\nsecond line' }).label, 'a.ts:3-4 “first line…”', 'first line only');
  assert.equal(commentView({ ...COMMENT, comment: 'first line\nsecond line' }).detail, 'src/a.ts: first line\nsecond line');
});

test('two comments on the same lines are two attachments; the same thread twice is one', () => {
  assert.ok(!sameTarget(COMMENT, { ...COMMENT, threadId: 'c2' }));
  assert.ok(sameTarget(COMMENT, { ...COMMENT, comment: 'edited' }));
  const selection: Attachment = { id: 'a2', kind: 'selection', uri: COMMENT.uri, name: 'a.ts', path: 'src/a.ts', startLine: 3, endLine: 4, text: COMMENT.text };
  assert.ok(!sameTarget(COMMENT, selection) && !sameTarget(selection, COMMENT));
});

test('a comment chip leaves the composer sent (with a prompt) or removed, and says which; moving to another session is not leaving', () => {
  const released: Released[] = [];
  const make = () => new PromptAttachments('Agent', () => ({ image: false, audio: false, embeddedContext: true }), () => {});
  const composer = make();
  composer.onDidRelease((r) => released.push(r));
  const { id: _id, ...fresh } = COMMENT;
  composer.add(fresh);
  composer.add({ ...fresh, threadId: 'c2' });
  assert.equal(composer.pending.length, 2);

  composer.remove(composer.pending[0].id);
  assert.deepEqual(released.map((r) => [r.sent, r.attachments.map((a) => a.kind === 'comment' && a.threadId)]), [[false, ['c1']]]);
  composer.remove('no-such-id');
  assert.equal(released.length, 1, 'removing nothing releases nothing');

  const other = make();
  other.adopt(composer);
  assert.equal(released.length, 1, 'adopted, not released');
  const taken = other.take();
  assert.equal(taken?.length, 1);
  assert.equal(released.length, 1, 'the other composer’s listeners hear of it, not this one’s');
  other.onDidRelease((r) => released.push(r));
  other.add({ ...fresh, threadId: 'c3' });
  other.take();
  assert.deepEqual(released.map((r) => r.sent), [false, true]);
  other.take();
  assert.equal(released.length, 2, 'an empty take releases nothing');
});
