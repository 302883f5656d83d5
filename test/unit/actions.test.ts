// The action table (src/host/panel/actions.ts) and its runner, without VS Code: a fake host and
// fake sessions record what each intent and command did, in which order, and what was reported.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSE_REGISTRY, COMMAND_IDS, dispatchIntent, runCommand } from '../../src/host/panel/actions';
import type { ActionHost, CommandId, PanelIntent, ShownSession, Workbench } from '../../src/host/panel/actions';
import { runAction } from '../../src/host/panel/actionRunner';
import type { RunnerHost } from '../../src/host/panel/actionRunner';
import type { Entry } from '../../src/session/model';

type Phase = ShownSession['currentStatus']['phase'];

/** Every call on the host, its workbench and its sessions, as "name(args)" lines in order. */
function fakeHost(options: { phase?: Phase; start?: () => Promise<void>; picked?: string | typeof BROWSE_REGISTRY; fail?: string; urls?: Record<string, { state: string; url: string }>; entries?: Entry[]; waiting?: string; fork?: boolean; declined?: boolean } = {}) {
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
    fake.runtime = { features: new Set(options.fork ? ['fork'] : []) };
    fake.currentSessionId = `${label}-id`;
    const entries = options.entries ?? [{ kind: 'user', text: 'the old prompt', checkpoint: 7 }];
    fake.transcript = {
      entries,
      addNote: (message: string) => void calls.push(`${label}.addNote(${message.slice(0, 31)}…)`),
      diffSource: (index: number) => (index === 0 ? { path: '/ws/a.ts', oldText: 'a', newText: 'b' } : undefined),
      questions: { urlEntry: (key: string) => urls.get(key), firstPermission: options.waiting },
      tools: { entry: (id: string) => entries.find((e) => e.kind === 'tool' && e.toolCallId === id) },
    };
    fake.label = `${label} title`;
    // A multi-root session: what the agent names opens only within these.
    fake.origin = { confinement: ['/ws', '/second'], roots: { cwd: '/ws', additionalDirectories: ['/second'] } };
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
    copy: record('copy'),
    openText: record('openText'),
    openMarkdown: record('openMarkdown'),
    failed: (what, error, tellUser) => void failures.push({ what, message: error.message, tellUser }),
  };
  const host = {
    controller: session('shown'),
    workbench,
    view: { focusPrompt: record('view.focusPrompt') },
    tabs: { all: [{ key: 'k1' }, { key: 'k2' }, { key: 'k3' }], shown: { key: 'k1' } as { key: string } | undefined },
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
    checkpoints: {
      restoreAt: async (s: ShownSession, index: number) => void calls.push(`checkpoints.restoreAt(${s.currentStatus.agentName}, ${index})`),
      pick: async (s: ShownSession) => void calls.push(`checkpoints.pick(${s.currentStatus.agentName})`),
      checkpointAt: (_s: unknown, index: number) => (index === 0 ? 7 : assert.fail('only entry 0 has a checkpoint')),
      restore: async (id: number, prompt: string) => (calls.push(`checkpoints.restore(${id}, ${JSON.stringify(prompt)})`), !options.declined),
    },
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
      [{ type: 'restoreCheckpoint', index: 2 }, 'checkpoints.restoreAt(shown-agent, 2)'],
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

  test('edit restores the message’s checkpoint, then sends the edited prompt in a fork before it, or in the same session with a note', async () => {
    const forking = fakeHost({ fork: true });
    forking.host.forkSession = async (s: ShownSession, index: number, before?: boolean) => {
      forking.calls.push(`forkSession(${s.currentStatus.agentName}, ${index}, ${before})`);
      forking.host.controller = forking.session('fork');
    };
    await dispatchIntent(forking.host, { type: 'editPrompt', index: 0, text: 'the new prompt' });
    assert.deepEqual(forking.calls, ['checkpoints.restore(7, "the old prompt")', 'forkSession(shown-agent, 0, true)', 'fork.prompt("the new prompt")']);

    const plain = fakeHost();
    await dispatchIntent(plain.host, { type: 'editPrompt', index: 0, text: 'the new prompt' });
    assert.deepEqual(plain.calls, ['checkpoints.restore(7, "the old prompt")', 'shown.addNote(You edited an earlier message: …)', 'shown.prompt("the new prompt")']);

    const declined = fakeHost({ fork: true, declined: true });
    await dispatchIntent(declined.host, { type: 'editPrompt', index: 0, text: 'the new prompt' });
    assert.deepEqual(declined.calls, ['checkpoints.restore(7, "the old prompt")'], 'declining the restore sends nothing');
    assert.deepEqual(declined.failures, []);
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

describe('take it with you, keyboard first', () => {
  const tool = (permission: (Entry & { kind: 'tool' })['permission']): Entry => ({
    kind: 'tool',
    toolCallId: 't1',
    title: 'Run: npm test',
    toolKind: 'execute',
    status: 'completed',
    locations: [],
    content: [{ type: 'text', text: 'all of it' }, { type: 'diff', path: '/ws/a.ts', isNewFile: false, added: 1, removed: 0, preview: ['+a'], previewTruncated: false }, { type: 'terminal', terminalId: 'x', output: 'tail', truncated: true, exitStatus: null }],
    permission,
  });

  test('Copy on a message copies the model’s markdown source; on a code block, the text the panel sent; neither for other entries', async () => {
    const { host, calls, failures } = fakeHost({ entries: [{ kind: 'user', text: 'hi *there*' }, { kind: 'agent', text: '# Answer\n```js\nx\n```' }, { kind: 'turnEnd', stopReason: 'end_turn' }] });
    await dispatchIntent(host, { type: 'copyMessage', index: 1 });
    await dispatchIntent(host, { type: 'copyMessage', index: 0 });
    await dispatchIntent(host, { type: 'copyText', text: 'const x = 1;' });
    assert.deepEqual(calls, ['copy("# Answer\\n```js\\nx\\n```")', 'copy("hi *there*")', 'copy("const x = 1;")']);
    await dispatchIntent(host, { type: 'copyMessage', index: 2 });
    await dispatchIntent(host, { type: 'copyMessage', index: 9 });
    assert.equal(calls.length, 3);
    assert.deepEqual(failures.map((f) => f.message), ['That entry is not a message: there is nothing to copy.', 'That entry is not a message: there is nothing to copy.']);
  });

  test('Open in editor opens a tool’s whole text output, or its terminal’s, named after the title; a diff or a missing one says why', async () => {
    const { host, calls, failures } = fakeHost({ entries: [tool(undefined)] });
    await dispatchIntent(host, { type: 'openToolOutput', index: 0, contentIndex: 0 });
    await dispatchIntent(host, { type: 'openToolOutput', index: 0, contentIndex: 2 });
    assert.deepEqual(calls, ['openText("Run npm test.txt", "all of it")', 'openText("Run npm test (terminal).txt", "[earlier output truncated]\\ntail")']);
    await dispatchIntent(host, { type: 'openToolOutput', index: 0, contentIndex: 1 });
    await dispatchIntent(host, { type: 'openToolOutput', index: 3, contentIndex: 0 });
    assert.equal(calls.length, 2);
    assert.deepEqual(failures.map((f) => f.tellUser), [true, true]);
  });

  test('Export Conversation opens the shown session as Markdown: its title, agent, entries, paths relative to its roots', async () => {
    const { host, calls } = fakeHost({ entries: [{ kind: 'user', text: 'Question' }, { kind: 'agent', text: 'Answer' }] });
    await runCommand(host, 'acpHost.exportConversation');
    assert.equal(calls.length, 1);
    const text = JSON.parse(calls[0].slice('openMarkdown('.length, -1)) as string;
    assert.match(text, /^# shown title\n\n- Agent: shown-agent\n- Exported: \d{4}-\d\d-\d\dT/);
    assert.match(text, /## You\n\nQuestion\n\n## shown-agent\n\nAnswer\n$/);
  });

  test('accept and reject answer the oldest waiting permission with its once-only option first, else the always one', async () => {
    const options = (kinds: string[]) => kinds.map((kind) => ({ optionId: `id-${kind}`, name: kind, kind })) as (Entry & { kind: 'tool' })['permission'];
    for (const [kinds, accept, reject] of [
      [['allow_always', 'allow_once', 'reject_always', 'reject_once'], 'id-allow_once', 'id-reject_once'],
      [['reject_always', 'allow_always'], 'id-allow_always', 'id-reject_always'],
    ] as const) {
      const { host, calls } = fakeHost({ entries: [tool(options([...kinds]))], waiting: 't1' });
      await runCommand(host, 'acpHost.acceptPermission');
      await runCommand(host, 'acpHost.rejectPermission');
      assert.deepEqual(calls, [`shown.choosePermission("t1", "${accept}")`, `shown.choosePermission("t1", "${reject}")`]);
    }
    const none = fakeHost();
    await runCommand(none.host, 'acpHost.acceptPermission');
    assert.deepEqual(none.failures, [{ what: 'acpHost.acceptPermission', message: 'No permission request is waiting.', tellUser: true }]);
    const onlyAllow = fakeHost({ entries: [tool(options(['allow_once']))], waiting: 't1' });
    await runCommand(onlyAllow.host, 'acpHost.rejectPermission');
    assert.deepEqual(onlyAllow.calls, []);
    assert.match(onlyAllow.failures[0].message, /offers no reject option/);
  });

  test('next and previous session go round the open sessions; focus prompt focuses the panel’s prompt', async () => {
    const { host, calls } = fakeHost();
    await runCommand(host, 'acpHost.nextSession');
    await runCommand(host, 'acpHost.previousSession');
    host.tabs.shown = { key: 'k3' };
    await runCommand(host, 'acpHost.nextSession');
    await runCommand(host, 'acpHost.focusPrompt');
    assert.deepEqual(calls, ['switchSession("k2")', 'switchSession("k3")', 'switchSession("k1")', 'view.focusPrompt()']);
    const alone = fakeHost();
    alone.host.tabs = { all: [{ key: 'k1' }], shown: { key: 'k1' } };
    await runCommand(alone.host, 'acpHost.nextSession');
    assert.deepEqual(alone.calls, []);
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
