// Review comments in the panel: a comment chip, made by the host's own projection
// (out/src/session/attachments.js attachmentView), renders with the comment icon, file, lines and
// the start of the comment, the whole comment on hover; its remove button posts detach; a sent
// prompt lists it; and a hostile comment or path stays text.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');
const { attachmentView, attachmentLabel } = require('../../out/src/session/attachments');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

/** A comment as the host keeps it (src/session/commentAttachment.ts). */
const comment = (over = {}) => ({
  id: 'a7',
  kind: 'comment',
  uri: 'file:///w/src/hello.ts',
  name: 'hello.ts',
  path: 'src/hello.ts',
  startLine: 3,
  endLine: 5,
  comment: 'Rename this: it reads as a boolean.',
  text: 'const done = 0;',
  side: 'current',
  threadId: 'c1',
  ...over,
});

test('a comment chip: comment icon, file:lines and the comment, the path and whole comment on hover; remove posts detach', async () => {
  await h.withPanel(env, {}, async (page) => {
    const view = attachmentView(comment());
    await h.render(page, h.snapshot([], { session: h.session({ attachments: [view] }) }));
    const chip = page.locator('#attachments li[data-attachment-id="a7"]');
    assert.equal(await chip.getAttribute('data-kind'), 'comment');
    assert.equal(await chip.locator('.codicon-comment').count(), 1);
    assert.equal(await chip.locator('.attachment-label').textContent(), 'hello.ts:3-5 “Rename this: it reads as a boolean.”');
    assert.equal(await chip.getAttribute('title'), 'hello.ts:3-5 “Rename this: it reads as a boolean.”\nsrc/hello.ts: Rename this: it reads as a boolean.');
    await chip.locator('button.attachment-remove').click();
    assert.deepEqual((await h.posted(page)).filter((m) => m.type !== 'ready'), [{ type: 'detach', id: 'a7' }]);
    await h.assertClean(page, assert);
  });
});

test('a hostile comment and path stay text, in the chip and in the sent prompt', async () => {
  await h.withPanel(env, {}, async (page) => {
    const evil = '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>';
    const hostile = comment({ comment: evil, name: `${evil}.ts`, path: `src/${evil}.ts` });
    const view = attachmentView(hostile);
    await h.render(page, h.snapshot([{ kind: 'user', text: 'x', attachments: [attachmentLabel(hostile)] }], { session: h.session({ attachments: [view] }) }));
    assert.equal(await page.locator('#attachments .attachment-label').textContent(), view.label);
    assert.ok(view.label.includes('<img src=x'), 'the label holds the markup, as text');
    assert.equal(await page.locator('#attachments li').getAttribute('title'), `${view.label}\n${view.detail}`);
    assert.equal(await page.locator('.user-attachments li[data-kind="comment"]').textContent(), view.label);
    assert.equal(await page.locator('#app img, #app script, #app svg').count(), 0);
    await h.waitForFrame(page, 3);
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'no payload ran');
    await h.assertClean(page, assert);
  });
});
