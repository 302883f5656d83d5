// The current plan pinned above the prompt box (section#pinned-plan), from the session view
// model's `plan`, in the real bundle: "Plan · n/m done" over its steps with the transcript's
// status styling, markdown and file plans, hidden without a plan, folded by the user across
// session updates and a reload; the transcript keeps its plan entries as they are.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const steps = (...statuses) => statuses.map((status, i) => ({ content: `Step ${i + 1}`, priority: i === 0 ? 'high' : 'medium', status }));
const items = (...statuses) => ({ type: 'items', entries: steps(...statuses) });
const pinned = '#pinned-plan';

test('the pinned plan: above the prompt box, "Plan · n/m done", each step with its status; the transcript keeps its entry', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'plan', entries: steps('completed', 'in_progress', 'pending') }], { session: h.session({ plan: items('completed', 'in_progress', 'pending') }) }));
    assert.equal(await page.locator(pinned).isVisible(), true);
    assert.equal(await page.locator(`footer.composer > ${pinned}`).count(), 1, 'in the composer');
    const above = await page.evaluate(() => !!(document.getElementById('pinned-plan').compareDocumentPosition(document.getElementById('prompt')) & Node.DOCUMENT_POSITION_FOLLOWING));
    assert.ok(above, 'above the prompt box');
    assert.equal((await page.locator(`${pinned} summary`).textContent()).replace(/\s+/g, ' ').trim(), 'Plan · 1/3 done');
    assert.deepEqual(await page.locator(`${pinned} li`).evaluateAll((lis) => lis.map((li) => [li.textContent.trim(), li.dataset.status, li.dataset.priority])), [
      ['Step 1', 'completed', 'high'],
      ['Step 2', 'in_progress', 'medium'],
      ['Step 3', 'pending', 'medium'],
    ]);
    // The transcript's styling applies: a completed step is struck through, as in its entry.
    const struck = await page.locator(`${pinned} li[data-status="completed"] .plan-text`).evaluate((el) => getComputedStyle(el).textDecorationLine);
    assert.equal(struck, 'line-through');
    assert.equal(await page.locator('#transcript .plan-text').count(), 3, 'the transcript keeps its plan entry');

    await h.render(page, { type: 'session', session: h.session({ plan: items('completed', 'completed', 'in_progress') }) });
    assert.match(await page.locator(`${pinned} .plan-progress`).textContent(), /2\/3 done/);
    await h.render(page, { type: 'session', session: h.session({ plan: null }) });
    assert.equal(await page.locator(pinned).isHidden(), true, 'hidden once there is no plan (removed)');
    await h.assertClean(page, assert);
  });
});

test('no plan: nothing pinned (a new session, an older host without the field)', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([]));
    assert.equal(await page.locator(pinned).isHidden(), true);
    assert.equal(await page.locator(`${pinned} li`).count(), 0);
  });
});

test('a markdown plan is pinned sanitized; a file plan as a link the host opens', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ plan: { type: 'markdown', text: '1. **first**\n2. second' } }) }));
    assert.equal(await page.locator(`${pinned} .markdown ol li`).count(), 2);
    assert.equal((await page.locator(`${pinned} summary`).textContent()).trim(), 'Plan', 'no count for a markdown plan');
    await h.render(page, { type: 'session', session: h.session({ plan: { type: 'file', uri: 'file:///w/PLAN.md' } }) });
    await h.clearPosted(page);
    await page.locator(`${pinned} a.plan-file`).click();
    assert.deepEqual((await h.posted(page)).filter((m) => m.type === 'openLink'), [{ type: 'openLink', href: 'file:///w/PLAN.md' }]);
    assert.deepEqual(page.__log.navigations, [], 'the webview itself never navigates');
  });
});

test('folded by the user, the pinned plan stays folded across updates and a reload, until unfolded', async () => {
  let state;
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ plan: items('pending', 'pending') }) }));
    assert.equal(await page.locator(`${pinned} details`).evaluate((d) => d.open), true, 'unfolded at first');
    await page.locator(`${pinned} summary`).click();
    assert.equal(await page.locator(`${pinned} details`).evaluate((d) => d.open), false);
    assert.equal(await page.locator(`${pinned} ul.plan`).isVisible(), false, 'only the header shows');
    await h.render(page, { type: 'session', session: h.session({ plan: items('completed', 'pending') }) });
    assert.equal(await page.locator(`${pinned} details`).evaluate((d) => d.open), false, 'still folded after an update');
    assert.match(await page.locator(`${pinned} summary`).textContent(), /1\/2 done/, 'the header follows the plan while folded');
    await page.waitForFunction(() => window.__getState()?.planFolded === true);
    state = await page.evaluate(() => window.__getState());
  });
  await h.withPanel(env, { state }, async (page) => {
    await h.render(page, h.snapshot([], { session: h.session({ plan: items('pending') }) }));
    assert.equal(await page.locator(`${pinned} details`).evaluate((d) => d.open), false, 'folded after a reload');
    await page.locator(`${pinned} summary`).click();
    assert.equal(await page.locator(`${pinned} ul.plan`).isVisible(), true);
  });
});
