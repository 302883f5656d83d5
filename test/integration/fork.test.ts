// "Fork from here" (UNSTABLE session/fork) in the real extension host, through the panel's intents,
// with test/fixtures/agents/fork-agent.js: it checks the fork request (a session it knows, an
// absolute cwd) and answers each prompt with the id of the session it reached.
import * as assert from 'assert';
import { api, closeSessionsAndAgents, find, until, useAgent } from './helpers';

const conversation = (c: Parameters<typeof find>[0]) => c.transcript.entries.flatMap((e) => (e.kind === 'user' || e.kind === 'agent' ? [`${e.kind}:${e.text}`] : []));

suite('fork', function () {
  this.timeout(60000);

  teardown(closeSessionsAndAgents);

  test('Fork from here opens a second tab with the conversation up to that message, and a prompt there goes to the new session id', async () => {
    const { host } = await api();
    const original = await useAgent('Forky', 'fork-agent.js');
    await host.handleIntent({ type: 'prompt', text: 'one' });
    await host.handleIntent({ type: 'prompt', text: 'two' });
    const originalId = original.currentSessionId!;
    assert.strictEqual(original.session.view.canFork, true, 'the agent advertises fork: the panel offers the button');
    const tabs = host.tabs.all.length;

    await host.handleIntent({ type: 'fork', index: 0 });
    const fork = host.controller;
    assert.notStrictEqual(fork, original, 'the fork is shown');
    assert.strictEqual(host.tabs.all.length, tabs + 1);
    assert.strictEqual(fork.currentStatus.phase, 'ready', fork.currentStatus.detail);
    const forkId = fork.currentSessionId;
    assert.strictEqual(forkId, `fork-1-of-${originalId}`);
    assert.deepStrictEqual(conversation(fork), ['user:one', `agent:${originalId} heard: one`]);
    assert.strictEqual(fork.session.view.forkOf?.title, 'one');
    assert.match(fork.session.view.forkOf?.note ?? '', /still includes the 1 later turn/);
    assert.ok(host.tabs.views().some((t) => t.label === 'one (fork)'), 'the switcher names it');

    await host.handleIntent({ type: 'prompt', text: 'three' });
    await until('the fork’s answer', () => (find(fork, 'agent').at(-1)?.text === `${forkId} heard: three` ? true : undefined));
    assert.deepStrictEqual(conversation(original), ['user:one', `agent:${originalId} heard: one`, 'user:two', `agent:${originalId} heard: two`], 'the original is as it was');
  });

  test('an agent without session/fork: no button, and a fork asked anyway opens nothing', async () => {
    const { host } = await api();
    const plain = await useAgent('Plain', 'well-behaved.js');
    await host.handleIntent({ type: 'prompt', text: 'hello' });
    assert.strictEqual(plain.session.view.canFork, false);
    const tabs = host.tabs.all.length;
    await host.handleIntent({ type: 'fork', index: 0 });
    assert.strictEqual(host.tabs.all.length, tabs);
    assert.strictEqual(host.controller, plain);
  });
});
