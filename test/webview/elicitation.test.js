// Elicitation forms (elicitation/create, form mode) in the panel: one labelled control per field
// type, defaults pre-filled, client-side checks with messages, Submit posting typed content,
// Decline / Cancel, a host-refused answer keeping what was typed, keyboard use, hostile labels.
// Plus a question relayed as a permission request with the agent's own option names.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

let env;
test.before(async () => { env = await h.launch(); });
test.after(async () => { await env?.close(); });

const intents = async (page) => (await h.posted(page)).filter((m) => m.type !== 'ready');

const FIELDS = [
  { name: 'name', title: 'Database name', description: 'Lower-case letters only', type: 'string', required: true, minLength: 2, maxLength: 12, pattern: '^[a-z]+$', default: 'app' },
  { name: 'email', title: 'Admin email', description: null, type: 'string', required: false, format: 'email' },
  { name: 'day', title: 'Start day', description: null, type: 'string', required: false, format: 'date' },
  { name: 'engine', title: 'Engine', description: null, type: 'choice', required: true, choices: [{ value: 'pg', title: 'PostgreSQL' }, { value: 'sqlite', title: 'SQLite' }] },
  { name: 'port', title: 'Port', description: null, type: 'integer', required: true, minimum: 1, maximum: 65535, default: 5432 },
  { name: 'ratio', title: 'Cache ratio', description: null, type: 'number', required: false, minimum: 0, maximum: 1 },
  { name: 'ssl', title: 'Use TLS', description: null, type: 'boolean', required: false, default: false },
  { name: 'extensions', title: 'Extensions', description: null, type: 'multiselect', required: true, minItems: 1, choices: [{ value: 'gis', title: 'PostGIS' }, { value: 'vec', title: 'pgvector' }] },
];

const form = (over = {}) => ({
  kind: 'elicitation', requestKey: 'elicitation-1', agentName: 'Fake', message: 'I need a few details.', title: 'Database setup',
  toolCallId: null, fields: FIELDS, state: 'pending', ...over,
});
const FORM = '#transcript .entry-elicitation form.elicitation-form';
const field = (name) => `${FORM} .field[data-field-name="${name}"]`;

test('every field type renders as a labelled control with its default', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([{ kind: 'user', text: 'set it up' }, form()], { status: h.status('prompting') }));
    const entry = page.locator('#transcript .entry-elicitation');
    assert.equal(await entry.getAttribute('data-state'), 'pending');
    assert.match(await entry.locator('.elicitation-head').innerText(), /Database setup/);
    assert.match(await entry.innerText(), /I need a few details\./);
    assert.match(await entry.innerText(), /Asked by Fake/);
    // Labels are tied to their controls: getByLabel finds each.
    assert.equal(await entry.getByLabel('Database name').inputValue(), 'app');
    assert.equal(await entry.getByLabel('Database name').getAttribute('type'), 'text');
    assert.equal(await entry.getByLabel('Admin email').getAttribute('type'), 'email');
    assert.equal(await entry.getByLabel('Start day').getAttribute('type'), 'date');
    assert.equal(await entry.getByLabel('Engine').evaluate((el) => el.tagName), 'SELECT');
    assert.deepEqual(await entry.getByLabel('Engine').locator('option').allInnerTexts(), ['Choose…', 'PostgreSQL', 'SQLite']);
    assert.equal(await entry.getByLabel('Port').getAttribute('type'), 'number');
    assert.equal(await entry.getByLabel('Port').inputValue(), '5432');
    assert.equal(await entry.getByLabel('Use TLS').isChecked(), false);
    assert.equal(await entry.getByRole('group', { name: /Extensions/ }).getByRole('checkbox').count(), 2);
    assert.equal(await entry.getByLabel('PostGIS').isChecked(), false);
    assert.match(await page.locator(field('name')).innerText(), /Lower-case letters only/);
    assert.equal(await entry.getByLabel('Database name').getAttribute('aria-required'), 'true');
    assert.deepEqual(await entry.locator('.form-actions button').allInnerTexts(), ['Submit', 'Decline', 'Cancel']);
    await h.assertClean(page, assert);
  });
});

test('Submit checks the fields first: messages per field, focus on the first at fault, nothing posted', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([form()], { status: h.status('prompting') }));
    const entry = page.locator('#transcript .entry-elicitation');
    await entry.getByLabel('Database name').fill('Bad1');
    await entry.getByLabel('Admin email').fill('not-an-email');
    await entry.getByLabel('Port').fill('70000');
    await entry.getByLabel('Cache ratio').fill('1.5');
    await entry.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await intents(page), []);
    const error = (name) => page.locator(`${field(name)} .field-error`).innerText();
    assert.equal(await error('name'), 'Must match the pattern ^[a-z]+$');
    assert.equal(await error('email'), 'Enter an email address');
    assert.equal(await error('engine'), 'Required');
    assert.equal(await error('port'), 'At most 65535');
    assert.equal(await error('ratio'), 'At most 1');
    assert.equal(await error('extensions'), 'Required');
    assert.equal(await page.locator(`${field('day')} .field-error`).isHidden(), true);
    assert.equal(await entry.getByLabel('Database name').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.closest('.field')?.dataset.fieldName), 'name', 'focus goes to the first field at fault');
    // Fixing a field clears its message as it is typed.
    await entry.getByLabel('Database name').fill('a');
    assert.equal(await error('name'), 'At least 2 characters');
    await entry.getByLabel('Database name').fill('shop');
    assert.equal(await page.locator(`${field('name')} .field-error`).isHidden(), true);
    assert.equal(await entry.getByLabel('Database name').getAttribute('aria-invalid'), null);
  });
});

test('an agent’s pattern cannot hang the panel: a catastrophic one is checked as the user types, one that cannot be checked says so and lets the answer through', async () => {
  await h.withPanel(env, {}, async (page) => {
    const fields = [
      { name: 'code', title: 'Code', description: null, type: 'string', required: true, pattern: '^(a+)+$' },
      { name: 'pair', title: 'Pair', description: 'Twice the same letter', type: 'string', required: true, pattern: '^(.)\\1$' },
    ];
    await h.render(page, h.snapshot([form({ fields })], { status: h.status('prompting') }));
    const entry = page.locator('#transcript .entry-elicitation');
    // RegExp would run for ever on this (2^2000 ways to split the a's); the page must stay responsive.
    await entry.getByLabel('Code').fill(`${'a'.repeat(2000)}b`);
    await entry.getByLabel('Pair').fill('xy');
    await entry.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await intents(page), []);
    assert.equal(await page.locator(`${field('code')} .field-error`).innerText(), 'Must match the pattern ^(a+)+$');
    assert.equal(await page.locator(`${field('pair')} .field-error`).isHidden(), true, 'not checked: not refused');
    assert.match(await page.locator(field('pair')).innerText(), /Twice the same letter \(Its pattern is not checked: a backreference\.\)/);
    await entry.getByLabel('Code').fill('aaa');
    await entry.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await intents(page), [{ type: 'elicitation', requestKey: 'elicitation-1', action: 'accept', content: { code: 'aaa', pair: 'xy' } }]);
  });
});

test('a valid form posts accept with typed content: numbers as numbers, booleans, arrays; empty optional fields left out', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([form()], { status: h.status('prompting') }));
    const entry = page.locator('#transcript .entry-elicitation');
    await entry.getByLabel('Database name').fill('shop');
    await entry.getByLabel('Engine').selectOption('sqlite');
    await entry.getByLabel('Cache ratio').fill('0.25');
    await entry.getByLabel('Use TLS').check();
    await entry.getByLabel('PostGIS').check();
    await entry.getByLabel('pgvector').check();
    await entry.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await intents(page), [{
      type: 'elicitation', requestKey: 'elicitation-1', action: 'accept',
      content: { name: 'shop', engine: 'sqlite', port: 5432, ratio: 0.25, ssl: true, extensions: ['gis', 'vec'] },
    }]);
  });
});

test('keyboard only: Tab through the controls, Space ticks, Enter in a text field submits', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([form({ fields: FIELDS.filter((f) => ['name', 'ssl', 'extensions'].includes(f.name)) })], { status: h.status('prompting') }));
    const entry = page.locator('#transcript .entry-elicitation');
    await entry.getByLabel('Database name').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // Use TLS
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // PostGIS
    await entry.getByLabel('Database name').focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await intents(page), [{ type: 'elicitation', requestKey: 'elicitation-1', action: 'accept', content: { name: 'app', ssl: true, extensions: ['gis'] } }]);
  });
});

test('Decline and Cancel post their action without content', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([form(), form({ requestKey: 'elicitation-2' })], { status: h.status('prompting') }));
    await page.locator('#transcript .entry-elicitation[data-request-key="elicitation-1"] button.elicitation-decline').click();
    await page.locator('#transcript .entry-elicitation[data-request-key="elicitation-2"]').getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await intents(page), [
      { type: 'elicitation', requestKey: 'elicitation-1', action: 'decline' },
      { type: 'elicitation', requestKey: 'elicitation-2', action: 'cancel' },
    ]);
  });
});

test('an answer the host refused shows its reason and keeps what was typed; an answered form shows the answer', async () => {
  await h.withPanel(env, {}, async (page) => {
    await h.render(page, h.snapshot([form()], { status: h.status('prompting') }));
    const entry = page.locator('#transcript .entry-elicitation');
    await entry.getByLabel('Database name').fill('typed');
    await entry.getByLabel('pgvector').check();
    await h.render(page, { type: 'entry', index: 0, entry: form({ error: 'Engine: Required' }) });
    assert.match(await entry.locator('.form-error').innerText(), /Engine: Required/);
    assert.equal(await entry.getByLabel('Database name').inputValue(), 'typed', 'the re-render keeps the draft');
    assert.equal(await entry.getByLabel('pgvector').isChecked(), true);

    await h.render(page, { type: 'entry', index: 0, entry: form({ state: 'accepted', content: { name: 'typed', engine: 'pg', port: 5432, ssl: false, extensions: ['vec'] } }) });
    assert.equal(await entry.locator('form').count(), 0, 'no form once answered');
    assert.equal(await entry.getAttribute('data-state'), 'accepted');
    const answer = await entry.locator('.elicitation-answer').innerText();
    for (const part of ['typed', 'PostgreSQL', '5432', 'No', 'pgvector']) assert.ok(answer.includes(part), `${part} in ${answer}`);
    await h.render(page, { type: 'entry', index: 0, entry: form({ state: 'cancelled' }) });
    assert.match(await entry.locator('.elicitation-head').innerText(), /Cancelled/);
  });
});

test('hostile titles, descriptions, choices and messages stay text', async () => {
  const evil = '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>';
  await h.withPanel(env, {}, async (page) => {
    const fields = [
      { name: evil, title: evil, description: evil, type: 'choice', required: true, choices: [{ value: evil, title: evil }] },
      { name: 'b', title: evil, description: evil, type: 'multiselect', required: false, choices: [{ value: 'x', title: evil }] },
      { name: 'c', title: evil, description: null, type: 'string', required: false, pattern: '(' },
    ];
    await h.render(page, h.snapshot([form({ title: evil, message: evil, agentName: evil, fields, requestKey: '"><img src=x onerror=window.__xss=1>' })], { status: h.status('prompting') }));
    const entry = page.locator('#transcript .entry-elicitation');
    assert.equal(await entry.locator('img, script').count(), 0);
    assert.ok((await entry.innerText()).includes('<img src=x'));
    await entry.locator('select').selectOption({ index: 1 });
    await entry.locator('.field[data-field-name="c"] input').fill('anything');
    await entry.getByRole('button', { name: 'Submit' }).click();
    const [sent] = await intents(page);
    assert.deepEqual(sent.content, { [evil]: evil, c: 'anything' }, 'an invalid pattern checks nothing');
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    await h.assertClean(page, assert);
  });
});

test('a question relayed as a permission request shows the agent’s option names and posts the chosen id', async () => {
  await h.withPanel(env, {}, async (page) => {
    const options = [{ optionId: 'use-pg', name: 'Use PostgreSQL', kind: 'allow_once' }, { optionId: 'use-sqlite', name: 'Use SQLite', kind: 'reject_once' }];
    const tool = { kind: 'tool', toolCallId: 'q-1', title: 'Which database should I use?', toolKind: 'think', status: 'pending', content: [], locations: [], permission: options };
    await h.render(page, h.snapshot([tool], { status: h.status('prompting') }));
    const card = page.locator('#transcript .entry-tool[data-tool-call-id="q-1"]');
    assert.deepEqual((await card.locator('.permission button.option').allInnerTexts()).map((t) => t.trim()), ['Use PostgreSQL', 'Use SQLite']);
    await card.getByRole('button', { name: 'Use SQLite' }).click();
    assert.deepEqual(await intents(page), [{ type: 'permission', toolCallId: 'q-1', optionId: 'use-sqlite' }]);
  });
});
