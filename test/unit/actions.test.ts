// The action table (src/host/panel/actions.ts) and its runner, without VS Code: a fake host and
// fake sessions record what each intent and command did, in which order, and what was reported.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSE_REGISTRY, COMMAND_IDS, dispatchIntent, runCommand } from '../../src/host/panel/actions';
import type { ActionHost, CommandId, PanelIntent, ShownSession, Workbench } from '../../src/host/panel/actions';
import { runAction } from '../../src/host/panel/actionRunner';
import type { RunnerHost } from '../../src/host/panel/actionRunner';

type Phase = ShownSession['currentStatus']['phase'];

/** Every call on the host, its workbench and its sessions, as "name(args)" lines in order. */
function fakeHost(options: { phase?: Phase; start?: () => Promise<void>; picked?: string | typeof BROWSE_REGISTRY; fail?: string; urls?: Record<string, { state: string; url: string }> } = {}) {
  const calls: string[] = [];
  const failures: { what: string; message: string; tellUser: boolean }[] = [];
  const record =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push(`${name}(${args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(', ')})`);
      if (name === options.fail) throw new Error(`${name} broke`);
    };
  /** A session that records its calls under `label`; `start` moves it out of idle. */
  const session = (label: string): ShownSession => {
    const status = { agentName: `${label}-agent`, phase: options.phase ?? 'ready' };
    const methods = ['authenticate', 'restart', 'prompt', 'unqueue', 'cancel', 'choosePermission', 'setMode', 'setConfigOption', 'attach', 'detach', 'noteAttachment'];
    const fake: Record<string, unknown> = Object.fromEntries(methods.map((m) => [m, record(`${label}.${m}`)]));
    fake.currentStatus = status;
    // URL cards by request key: an `accept` moves a pending one to waiting, as the engine does.
    const urls = new Map(Object.entries(options.urls ?? {}).map(([key, card]) => [key, { ...card }]));
    fake.answerElicitation = (requestKey: string, action: string, content: unknown) => {
      void record(`${label}.answerElicitation`)(requestKey, action, content);
      const card = urls.get(requestKey);
      if (card?.state === 'pending') card.state = action === 'accept' ? 'waiting' : 'declined';
    };
    fake.signOut = async () => (calls.push(`${label}.signOut()`), `Signed out of ${label}-agent.`);
    fake.transcript = {
      diffSource: (index: number) => (index === 0 ? { path: '/ws/a.ts', oldText: 'a', newText: 'b' } : undefined),
      questions: { urlEntry: (key: string) => urls.get(key) },
    };
    // A multi-root session: what the agent names opens only within these.
    fake.origin = { confinement: ['/ws', '/second'] };
    fake.start = async () => {
      calls.push(`${label}.start()`);
      await (options.start?.() ?? Promise.resolve());
      status.phase = 'ready';
    };
    return fake as unknown as ShownSession;
  };
  const workbench: Workbench = {
    openDiff: record('openDiff'),
    openLocation: record('openLocation'),
    openLink: record('openLink'),
    openWebPage: record('openWebPage'),
    inform: (message) => void calls.push(`inform(${JSON.stringify(message)})`),
    pickAgent: async (choices, current) => (calls.push(`pickAgent(${choices.map((c) => c.name).join(',')}; ${current})`), options.picked),
    setFollow: record('setFollow'),
    showLog: () => void calls.push('showLog()'),
    showTrace: record('showTrace'),
    copyTrace: record('copyTrace'),
    forgetSecrets: record('forgetSecrets'),
    failed: (what, error, tellUser) => void failures.push({ what, message: error.message, tellUser }),
  };
  const host = {
    controller: session('shown'),
    workbench,
    reviewer: { open: record('reviewer.open'), keep: record('reviewer.keep'), undo: record('reviewer.undo') },
    audit: { show: record('audit.show'), export: record('audit.export') },
    mentions: { pick: async () => (calls.push('mentions.pick()'), [{ kind: 'file' as const, uri: 'file:///ws/a.ts', name: 'a.ts', path: 'a.ts' }]) },
    agentChoices: () => [
      { name: 'Demo agent', commandLine: 'built-in' },
      { name: 'Other', commandLine: 'other --acp' },
    ],
    startSession: (s: ShownSession) => (calls.push('host.startSession()'), s.start()),
    startAgent: record('startAgent'),
    chooseAgent: record('chooseAgent'),
    newSession: record('newSession'),
    forkSession: async (s: ShownSession, index: number) => void calls.push(`forkSession(${s.currentStatus.agentName}, ${index})`),
    switchSession: (key: string) => void calls.push(`switchSession("${key}")`),
    closeSession: record('closeSession'),
    openFromHistory: record('openFromHistory'),
    addSelection: record('addSelection'),
    manageRememberedPermissions: record('manageRememberedPermissions'),
    manageWorkspaceConsent: record('manageWorkspaceConsent'),
    registry: { browse: record('registry.browse') },
  } satisfies ActionHost;
  return { host, calls, failures, session };
}

describe('panel intents', () => {
  test('each acts on the shown session or the host, with the intent’s fields', async () => {
    const cases: [PanelIntent, string][] = [
      [{ type: 'cancel' }, 'shown.cancel()'],
      [{ type: 'restart' }, 'shown.restart()'],
      [{ type: 'authenticate', methodId: 'key' }, 'shown.authenticate("key")'],
      [{ type: 'unqueue', id: 3 }, 'shown.unqueue(3)'],
      [{ type: 'permission', toolCallId: 't1', optionId: 'allow' }, 'shown.choosePermission("t1", "allow")'],
      [{ type: 'elicitation', requestKey: 'r', action: 'decline' }, 'shown.answerElicitation("r", "decline", undefined)'],
      [{ type: 'setMode', modeId: 'code' }, 'shown.setMode("code")'],
      [{ type: 'setConfigOption', configId: 'model', value: true }, 'shown.setConfigOption("model", true)'],
      [{ type: 'detach', id: 'a1' }, 'shown.detach("a1")'],
      [{ type: 'attachRefused', name: 'big.png', reason: 'tooLarge' }, 'shown.noteAttachment("big.png was not attached: images larger than 5 MB are not attached.")'],
      [{ type: 'chooseAgent', name: 'Other' }, 'chooseAgent("Other")'],
      [{ type: 'openLocation', path: '/ws/a.ts', line: 3 }, 'openLocation("/ws/a.ts", 3, ["/ws","/second"])'],
      [{ type: 'openLink', href: 'https://example.com' }, 'openLink("https://example.com", ["/ws","/second"])'],
      [{ type: 'openDiff', index: 0, contentIndex: 0 }, 'openDiff({"path":"/ws/a.ts","oldText":"a","newText":"b"})'],
      [{ type: 'reviewOpen', path: '/ws/a.ts' }, 'reviewer.open("/ws/a.ts")'],
      [{ type: 'reviewKeep' }, 'reviewer.keep(undefined)'],
      [{ type: 'reviewUndo', path: '/ws/b.ts' }, 'reviewer.undo("/ws/b.ts")'],
      [{ type: 'setFollow', enabled: false }, 'setFollow(false)'],
      [{ type: 'attachSelection' }, 'addSelection()'],
      [{ type: 'switchSession', key: 'k2' }, 'switchSession("k2")'],
      [{ type: 'newSession' }, 'newSession()'],
      [{ type: 'fork', index: 4 }, 'forkSession(shown-agent, 4)'],
      [{ type: 'closeSession', key: 'k1' }, 'closeSession("k1")'],
      [{ type: 'sessionHistory' }, 'openFromHistory()'],
    ];
    for (const [intent, expected] of cases) {
      const { host, calls, failures } = fakeHost();
      await dispatchIntent(host, intent);
      assert.deepEqual(calls, [expected], intent.type);
      assert.deepEqual(failures, [], intent.type);
    }
  });

  test('start starts the shown session whatever its phase (a crashed one too)', async () => {
    const { host, calls } = fakeHost({ phase: 'crashed' });
    await dispatchIntent(host, { type: 'start' });
    assert.deepEqual(calls, ['host.startSession()', 'shown.start()']);
  });

  test('prompt and attachImage need a running agent: an idle session is started first, and waited for', async () => {
    for (const intent of [{ type: 'prompt', text: 'hi' }, { type: 'attachImage', mimeType: 'image/png', data: 'iVBO', name: 'a.png' }] satisfies PanelIntent[]) {
      let release!: () => void;
      const { host, calls } = fakeHost({ phase: 'idle', start: () => new Promise<void>((r) => (release = r)) });
      const done = dispatchIntent(host, intent);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(calls, ['host.startSession()', 'shown.start()'], `${intent.type} waits for the start`);
      release();
      await done;
      assert.equal(calls.length, 3);
      assert.match(calls[2], intent.type === 'prompt' ? /^shown\.prompt\("hi"\)$/ : /^shown\.attach\(\{"kind":"image","name":"a.png","mimeType":"image\/png","data":"iVBO"\}\)$/);
    }
  });

  test('fork needs the agent running (whether it forks is known only then): an idle session is started first; a refusal is shown', async () => {
    const { host, calls, failures } = fakeHost({ phase: 'idle' });
    await dispatchIntent(host, { type: 'fork', index: 0 });
    assert.deepEqual(calls, ['host.startSession()', 'shown.start()', 'forkSession(shown-agent, 0)']);
    assert.deepEqual(failures, []);
    host.forkSession = async () => {
      throw new Error('Demo agent does not offer session/fork: this session cannot be forked.');
    };
    await dispatchIntent(host, { type: 'fork', index: 0 });
    assert.deepEqual(failures, [{ what: 'fork', message: 'Demo agent does not offer session/fork: this session cannot be forked.', tellUser: true }]);
  });

  test('a session that is not idle is not started again', async () => {
    const { host, calls } = fakeHost({ phase: 'prompting' });
    await dispatchIntent(host, { type: 'prompt', text: 'next' });
    assert.deepEqual(calls, ['shown.prompt("next")']);
  });

  test('mention starts an idle agent without waiting: the picker opens meanwhile, and the picks attach to the session', async () => {
    let release!: () => void;
    const { host, calls } = fakeHost({ phase: 'idle', start: () => new Promise<void>((r) => (release = r)) });
    await dispatchIntent(host, { type: 'mention' });
    assert.deepEqual(calls, ['host.startSession()', 'shown.start()', 'mentions.pick()', 'shown.attach({"kind":"file","uri":"file:///ws/a.ts","name":"a.ts","path":"a.ts"})']);
    release();
  });

  test('a background start that fails is logged, not shown, and the action still runs', async () => {
    const { host, calls, failures } = fakeHost({ phase: 'idle', start: () => Promise.reject(new Error('no agent')) });
    await dispatchIntent(host, { type: 'mention' });
    await new Promise((r) => setImmediate(r));
    assert.ok(calls.includes('mentions.pick()'));
    assert.deepEqual(failures, [{ what: 'mention (starting the agent)', message: 'no agent', tellUser: false }]);
  });

  test('the action acts on the session shown when it was asked for, even if another is shown once the agent has started', async () => {
    const fake = fakeHost({ phase: 'idle' });
    const typedIn = fake.host.controller;
    fake.host.startSession = async (s) => {
      await s.start();
      fake.host.controller = fake.session('other');
    };
    await dispatchIntent(fake.host, { type: 'prompt', text: 'hi' });
    assert.notEqual(fake.host.controller, typedIn);
    assert.deepEqual(fake.calls.slice(-1), ['shown.prompt("hi")']);
  });

  test('a failure is logged and never rejects; only what the user opened is shown as a warning', async () => {
    for (const [intent, fail, tellUser] of [
      [{ type: 'cancel' }, 'shown.cancel', false],
      [{ type: 'reviewKeep' }, 'reviewer.keep', false],
      [{ type: 'openLocation', path: '/x', line: null }, 'openLocation', true],
      [{ type: 'openLink', href: 'x:y' }, 'openLink', true],
    ] satisfies [PanelIntent, string, boolean][]) {
      const { host, failures } = fakeHost({ fail });
      await dispatchIntent(host, intent);
      assert.deepEqual(failures, [{ what: intent.type, message: `${fail} broke`, tellUser }]);
    }
  });

  test('a URL card: Open (accept) answers, then the host opens the URL the card holds; Open again opens it again; Decline opens nothing', async () => {
    const urls = { 'url-1': { state: 'pending', url: 'https://example.com/login' } };
    const { host, calls } = fakeHost({ urls });
    await dispatchIntent(host, { type: 'elicitation', requestKey: 'url-1', action: 'accept' });
    assert.deepEqual(calls, ['shown.answerElicitation("url-1", "accept", undefined)', 'openWebPage("https://example.com/login")']);
    await dispatchIntent(host, { type: 'elicitation', requestKey: 'url-1', action: 'accept' });
    assert.deepEqual(calls.slice(2), ['shown.answerElicitation("url-1", "accept", undefined)', 'openWebPage("https://example.com/login")'], 'the card waits: its Open again');

    const declined = fakeHost({ urls });
    await dispatchIntent(declined.host, { type: 'elicitation', requestKey: 'url-1', action: 'decline' });
    await dispatchIntent(declined.host, { type: 'elicitation', requestKey: 'url-1', action: 'accept' });
    assert.ok(!declined.calls.some((c) => c.startsWith('openWebPage')), declined.calls.join('\n'));
    const form = fakeHost();
    await dispatchIntent(form.host, { type: 'elicitation', requestKey: 'form-1', action: 'accept', content: { a: 1 } });
    assert.deepEqual(form.calls, ['shown.answerElicitation("form-1", "accept", {"a":1})'], 'a form opens nothing');
  });

  test('a diff whose texts are gone says why, as a warning', async () => {
    const { host, calls, failures } = fakeHost();
    await dispatchIntent(host, { type: 'openDiff', index: 5, contentIndex: 0 });
    assert.deepEqual(calls, []);
    assert.equal(failures.length, 1);
    assert.match(failures[0].message, /no longer kept: a session keeps the newest .* of diff texts, and none after a window reload/);
    assert.equal(failures[0].tellUser, true);
  });
});

describe('palette commands', () => {
  test('a command that does what a panel button does runs the same action', async () => {
    for (const [id, intent] of [
      ['acpHost.cancelTurn', { type: 'cancel' }],
      ['acpHost.restartAgent', { type: 'restart' }],
      ['acpHost.newSession', { type: 'newSession' }],
      ['acpHost.closeSession', { type: 'closeSession' }],
      ['acpHost.sessionHistory', { type: 'sessionHistory' }],
      ['acpHost.addSelection', { type: 'attachSelection' }],
    ] satisfies [CommandId, PanelIntent][]) {
      const fromPalette = fakeHost();
      await runCommand(fromPalette.host, id);
      const fromPanel = fakeHost();
      await dispatchIntent(fromPanel.host, intent);
      assert.equal(fromPalette.calls.length, 1, id);
      assert.deepEqual(fromPalette.calls, fromPanel.calls, id);
    }
  });

  test('the commands of their own', async () => {
    for (const [id, expected] of [
      ['acpHost.startAgent', 'startAgent()'],
      ['acpHost.showLog', 'showLog()'],
      ['acpHost.showTrace', 'showTrace("shown-agent")'],
      ['acpHost.copyTrace', 'copyTrace("shown-agent")'],
      ['acpHost.forgetSecrets', 'forgetSecrets()'],
      ['acpHost.showAuditLog', 'audit.show()'],
      ['acpHost.exportAuditLog', 'audit.export()'],
      ['acpHost.manageWorkspaceConsent', 'manageWorkspaceConsent()'],
      ['acpHost.browseAgents', 'registry.browse()'],
    ] as const) {
      const { host, calls } = fakeHost();
      await runCommand(host, id);
      assert.deepEqual(calls, [expected], id);
    }
  });

  test('Sign Out signs the shown session’s agent out and says so in the status bar; a refusal is shown', async () => {
    const { host, calls } = fakeHost();
    await runCommand(host, 'acpHost.signOut');
    assert.deepEqual(calls, ['shown.signOut()', 'inform("Signed out of shown-agent.")']);
    const refused = fakeHost();
    (refused.host.controller as { signOut: () => Promise<string> }).signOut = () => Promise.reject(new Error('Fake does not offer signing out.'));
    await runCommand(refused.host, 'acpHost.signOut');
    assert.deepEqual(refused.failures, [{ what: 'acpHost.signOut', message: 'Fake does not offer signing out.', tellUser: true }]);
    assert.deepEqual(refused.calls, []);
  });

  test('Choose Agent… offers the configured agents and chooses the pick; dismissed, nothing changes', async () => {
    const picked = fakeHost({ picked: 'Other' });
    await runCommand(picked.host, 'acpHost.chooseAgent');
    assert.deepEqual(picked.calls, ['pickAgent(Demo agent,Other; shown-agent)', 'chooseAgent("Other")']);
    const dismissed = fakeHost();
    await runCommand(dismissed.host, 'acpHost.chooseAgent');
    assert.deepEqual(dismissed.calls, ['pickAgent(Demo agent,Other; shown-agent)']);
  });

  test('Choose Agent…’s last row opens the ACP Registry (ACP: Browse Agents…)', async () => {
    const browse = fakeHost({ picked: BROWSE_REGISTRY });
    await runCommand(browse.host, 'acpHost.chooseAgent');
    assert.deepEqual(browse.calls, ['pickAgent(Demo agent,Other; shown-agent)', 'registry.browse()']);
  });

  test('a failed command is shown, even when the panel’s same action would only log it', async () => {
    const { host, failures } = fakeHost({ fail: 'shown.cancel' });
    await runCommand(host, 'acpHost.cancelTurn');
    assert.deepEqual(failures, [{ what: 'acpHost.cancelTurn', message: 'shown.cancel broke', tellUser: true }]);
  });

  test('every command is registered from the table', () => {
    assert.equal(new Set(COMMAND_IDS).size, COMMAND_IDS.length);
    for (const id of COMMAND_IDS) assert.match(id, /^acpHost\.\w+$/);
  });
});

describe('runAction', () => {
  function runner(phase: string) {
    const log: string[] = [];
    const host: RunnerHost<{ currentStatus: { phase: string } }> = {
      controller: { currentStatus: { phase } },
      startSession: async () => void log.push('start'),
      workbench: { failed: (what, error, tellUser) => void log.push(`failed ${what}: ${error.message} (${tellUser})`) },
    };
    return { host, log };
  }

  test('no needs: runs at once, whatever the phase, and resolves with what the action returned', async () => {
    const { host, log } = runner('idle');
    assert.equal(await runAction(host, { run: () => (log.push('run'), 42) }, undefined, { what: 'x' }), 42);
    assert.deepEqual(log, ['run']);
  });

  test('a failure resolves undefined; tellUser from the caller or the action', async () => {
    const { host, log } = runner('ready');
    const broken = {
      run: () => {
        throw new Error('no');
      },
    };
    assert.equal(await runAction(host, broken, undefined, { what: 'a' }), undefined);
    await runAction(host, broken, undefined, { what: 'b', tellUser: true });
    await runAction(host, { ...broken, warnOnFailure: true }, undefined, { what: 'c' });
    assert.deepEqual(log, ['failed a: no (false)', 'failed b: no (true)', 'failed c: no (true)']);
  });
});
