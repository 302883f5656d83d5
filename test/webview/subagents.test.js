// A subagent's tool calls (the host nests them from the agent's `_meta`, see
// test/unit/subagents.test.ts): each card is indented under the call that started it, keeps its
// own status badge, and the parent's id is an attribute, never markup.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const { entry } = h;
const tool = (over = {}) => ({ kind: 'tool', toolCallId: 'call-1', title: 'A tool', toolKind: 'other', status: 'completed', content: [], locations: [], ...over });

test('a subagent\'s tool call is nested under the call that started it, with its own status', async () => {
  const hostile = '<img src=x onerror="window.__pwned=1">';
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([
      tool({ toolCallId: 'toolu_task', title: 'Explore the tests', name: 'Agent', toolKind: 'think', status: 'in_progress' }),
      tool({ toolCallId: 'toolu_read', title: 'Read test/a.ts', name: 'Read', toolKind: 'read', status: 'completed', parentToolCallId: 'toolu_task' }),
      tool({ toolCallId: 'toolu_grep', title: 'grep', name: 'Grep', toolKind: 'search', status: 'failed', parentToolCallId: hostile }),
    ]));
    const parent = page.locator(entry(0));
    const child = page.locator(entry(1));
    assert.equal(await page.locator('#transcript .tool-nested').count(), 2, 'the two calls of the subagent are nested, the call that started it is not');
    const nested = page.locator(`${entry(1)} [data-parent-tool-call-id="toolu_task"], ${entry(1)}[data-parent-tool-call-id="toolu_task"]`);
    assert.equal(await nested.count(), 1);
    assert.equal(await child.locator('.badge').textContent(), 'Done');
    assert.equal(await page.locator(entry(2)).locator('.badge').textContent(), 'Failed');
    const left = async (loc) => loc.evaluate((el) => (el.querySelector('.tool-head') ?? el).getBoundingClientRect().left);
    assert.ok(await left(child) > await left(parent), 'the child is indented under its parent');
    assert.equal(await page.locator('#transcript img').count(), 0, 'the parent id is never markup');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });
});
