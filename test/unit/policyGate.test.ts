// ACP Host's say over one session's agent requests (src/session/policyGate.ts), with a fake host
// port and a real transcript: allow serves, deny refuses with a clear error and serves nothing,
// ask shows the question on the transcript (the running tool call's card when there is one) and
// the user's choice is obeyed and remembered; the agent's own permission requests are answered by
// rules and auto-approve, and the card says so.
import test from 'node:test';
import assert from 'node:assert/strict';
import { PolicyGate } from '../../src/session/policyGate';
import { Transcript } from '../../src/session/transcript';
import { RuleSet } from '../../src/policy/rules';
import type { Rule, SourcedRule } from '../../src/policy/rules';
import type { AutoApprove } from '../../src/policy/policy';
import type { PolicyPort } from '../../src/runtime/ports';
import type { ToolEntry } from '../../src/session/model';
import { ErrorCodes, RpcError } from '../../src/protocol/errors';
import { RequestPermissionRequestSchema, SessionUpdateSchema } from '../../src/protocol';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const ROOT = '/ws';

function setup({ settings = [] as SourcedRule[], autoApprove = 'off' as AutoApprove, concern = undefined as string | undefined } = {}) {
  const workspace: SourcedRule[] = [];
  let layers = { settings: new RuleSet(settings), workspace: [...workspace], protectedPaths: [], autoApprove };
  const port: PolicyPort = {
    layers: () => layers,
    rememberForWorkspace: (rule: Rule) => {
      workspace.push({ ...rule, source: 'workspace' });
      layers = { ...layers, workspace: [...workspace] };
    },
    writeConcern: async () => concern,
  };
  const transcript = new Transcript();
  const gate = new PolicyGate(port, transcript, 'Fake', silent, () => [ROOT]);
  const served: string[] = [];
  const writeFile = (path: string) => gate.writeTextFile({ sessionId: 's', path, content: 'x' }, async (r) => void served.push(r.path));
  return { gate, transcript, served, workspace, writeFile };
}

/** The card waiting on the user (the last tool entry with options), once it is there. */
async function waitingCard(transcript: Transcript): Promise<ToolEntry> {
  // The gate resolves the path on the file system first: a few turns of the thread pool.
  for (let i = 0; i < 400; i++) {
    const card = transcript.entries.findLast((e): e is ToolEntry => e.kind === 'tool' && e.permission !== undefined);
    if (card) return card;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('no card asks');
}

test('an ordinary write is served at once; nothing asks', async () => {
  const { writeFile, served, transcript } = setup();
  await writeFile(`${ROOT}/src/a.ts`);
  assert.deepEqual(served, [`${ROOT}/src/a.ts`]);
  assert.equal(transcript.entries.length, 0);
});

test('a write to a protected path asks on a card of its own; Deny answers the agent with a clear error and writes nothing', async () => {
  const { writeFile, served, transcript } = setup();
  const pending = writeFile(`${ROOT}/.vscode/settings.json`);
  const card = await waitingCard(transcript);
  assert.deepEqual(card.permission?.map((o) => o.name), ['Allow once', 'Allow for this session', 'Always in this workspace', 'Deny']);
  assert.match(card.policyNote ?? '', /ACP Host asks before Fake may write \.vscode\/settings\.json: it is a protected path \(\*\*\/\.vscode\/\*\*\)/);
  assert.ok(transcript.questions.answerPermission(card.toolCallId, 'acp-host:deny'));
  await assert.rejects(pending, (error: RpcError) => error instanceof RpcError && error.code === ErrorCodes.InternalError && /refused to write \/ws\/\.vscode\/settings\.json: the user denied it\. Nothing was done\./.test(error.message));
  assert.deepEqual(served, []);
  const after = transcript.entries.at(-1) as ToolEntry;
  assert.equal(after.permission, undefined);
  assert.equal(after.status, 'failed');
  assert.match(after.policyNote ?? '', /"Deny"/);
});

test('Allow for this session and Always in this workspace are remembered; Allow once is not', async () => {
  const { writeFile, served, transcript, workspace } = setup();
  const answer = async (optionId: string, path: string) => {
    const pending = writeFile(path);
    const card = await waitingCard(transcript);
    transcript.questions.answerPermission(card.toolCallId, optionId);
    await pending;
  };
  await answer('acp-host:allow-once', `${ROOT}/.env`);
  const again = writeFile(`${ROOT}/.env`);
  const card = await waitingCard(transcript);
  transcript.questions.answerPermission(card.toolCallId, 'acp-host:allow-session');
  await again;
  await writeFile(`${ROOT}/.env`); // remembered: no card
  await answer('acp-host:allow-workspace', `${ROOT}/.git/hooks/pre-commit`);
  await writeFile(`${ROOT}/.git/hooks/pre-commit`);
  assert.deepEqual(served, [`${ROOT}/.env`, `${ROOT}/.env`, `${ROOT}/.env`, `${ROOT}/.git/hooks/pre-commit`, `${ROOT}/.git/hooks/pre-commit`]);
  assert.deepEqual(workspace.map((r) => [r.request, r.path, r.decision]), [['write', '.git/hooks/pre-commit', 'allow']]);
  assert.equal(transcript.entries.filter((e) => e.kind === 'tool').length, 3, 'three questions, three cards');
});

test('the question goes on the card of the running tool call that names the file', async () => {
  const { writeFile, transcript } = setup();
  transcript.apply(SessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit settings', kind: 'edit', status: 'in_progress', locations: [{ path: `${ROOT}/.vscode/settings.json` }] }));
  const pending = writeFile(`${ROOT}/.vscode/settings.json`);
  const card = await waitingCard(transcript);
  assert.equal(card.toolCallId, 'edit-1');
  transcript.questions.answerPermission('edit-1', 'acp-host:allow-once');
  await pending;
  assert.equal(transcript.entries.length, 1);
  assert.equal((transcript.entries[0] as ToolEntry).status, 'in_progress', 'the agent\'s card keeps its own status');
});

test('a question cancelled (stop, crash, end of turn) refuses the request', async () => {
  const { writeFile, served, transcript } = setup();
  const pending = writeFile(`${ROOT}/.npmrc`);
  await waitingCard(transcript);
  transcript.questions.cancelWaiting();
  await assert.rejects(pending, /the question was withdrawn/);
  assert.deepEqual(served, []);
});

test('a rule that denies refuses without asking; terminal commands pass the policy too', async () => {
  const settings: SourcedRule[] = [
    { request: 'write', path: 'dist/**', decision: 'deny', source: 'settings' },
    { request: 'terminal', command: 'curl *', decision: 'deny', source: 'settings' },
  ];
  const { gate, writeFile, served, transcript } = setup({ settings });
  await assert.rejects(writeFile(`${ROOT}/dist/app.js`), /acpHost\.rules: deny/);
  const created: string[] = [];
  const terminals = gate.terminals({
    create: async (r) => (created.push(r.command), { terminalId: 't1' }),
    output: async () => ({ output: '', truncated: false }),
    waitForExit: async () => ({ exitCode: 0 }),
    kill: async () => undefined,
    release: async () => undefined,
  })!;
  await assert.rejects(terminals.create({ sessionId: 's', command: 'curl', args: ['https://example.com'] }), /refused to run curl https:\/\/example\.com/);
  await terminals.create({ sessionId: 's', command: 'npm', args: ['test'] });
  assert.deepEqual(created, ['npm']);
  assert.deepEqual(served, []);
  assert.equal(transcript.entries.length, 0);
});

test('a write over unsaved edits the agent has not seen asks, with Allow once and Deny only', async () => {
  const { writeFile, transcript, served } = setup({ concern: 'its editor has unsaved changes that the agent has not read' });
  const pending = writeFile(`${ROOT}/src/a.ts`);
  const card = await waitingCard(transcript);
  assert.deepEqual(card.permission?.map((o) => o.name), ['Allow once', 'Deny']);
  assert.match(card.policyNote ?? '', /unsaved changes/);
  transcript.questions.answerPermission(card.toolCallId, 'acp-host:allow-once');
  await pending;
  assert.deepEqual(served, [`${ROOT}/src/a.ts`]);
});

const permission = (kind: string, options = ['allow_once', 'allow_always', 'reject_once']) =>
  RequestPermissionRequestSchema.parse({
    sessionId: 's',
    toolCall: { toolCallId: `call-${kind}`, title: `A ${kind} tool`, kind, status: 'pending' },
    options: options.map((k) => ({ optionId: `opt-${k}`, name: k, kind: k })),
  });

test('auto-approve answers the agent\'s own permission request with allow_once, never allow_always, and the card says so', async () => {
  const { gate, transcript } = setup({ autoApprove: 'safe' });
  const askUser = () => Promise.reject(new Error('the user was asked'));
  assert.deepEqual(await gate.permission(permission('read', ['allow_always', 'allow_once', 'reject_once']), askUser), { outcome: { outcome: 'selected', optionId: 'opt-allow_once' } });
  assert.deepEqual(await gate.permission(permission('search', ['allow_once', 'reject_once']), askUser), { outcome: { outcome: 'selected', optionId: 'opt-allow_once' } });
  assert.match((transcript.entries[0] as ToolEntry).policyNote ?? '', /Allowed by ACP Host \(auto-approve: safe\): "allow_once"/);
  let asked = 0;
  await gate.permission(permission('edit'), async () => (asked++, { outcome: { outcome: 'cancelled' } }));
  assert.equal(asked, 1, 'an edit is not "safe": the user answers');
});

test('an allow rule answers with allow_once too', async () => {
  const { gate } = setup({ settings: [{ request: 'permission', toolKind: ['execute'], decision: 'allow', source: 'settings' }] });
  const response = await gate.permission(permission('execute', ['allow_always', 'allow_once', 'reject_once']), () => Promise.reject(new Error('asked')));
  assert.deepEqual(response, { outcome: { outcome: 'selected', optionId: 'opt-allow_once' } });
});

test('an agent that offers only allow_always is asked of the user, and the card says why', async () => {
  const events: { decision: string }[] = [];
  const { transcript } = setup();
  const port: PolicyPort = {
    layers: () => ({ settings: new RuleSet([]), workspace: [], protectedPaths: [], autoApprove: 'allButProtected' }),
    rememberForWorkspace: () => undefined,
  };
  const gate = new PolicyGate(port, transcript, 'Fake', silent, () => [ROOT], (e) => void events.push(e));
  let asked = 0;
  const response = await gate.permission(permission('edit', ['allow_always', 'reject_once']), async () => (asked++, { outcome: { outcome: 'selected', optionId: 'opt-reject_once' } }));
  assert.equal(asked, 1);
  assert.deepEqual(response, { outcome: { outcome: 'selected', optionId: 'opt-reject_once' } }, 'the user\'s answer, as given');
  assert.match((transcript.entries[0] as ToolEntry).policyNote ?? '', /would allow this \(auto-approve: allButProtected\), but Fake offers no "allow once"/);
  assert.deepEqual(events, [], 'the host answered nothing: the user\'s question records itself (permissionAudit.ts)');
});

test('a rule that denies an agent\'s permission request answers it with a reject option', async () => {
  const { gate } = setup({ settings: [{ request: 'permission', toolKind: ['execute'], decision: 'deny', source: 'settings' }] });
  const response = await gate.permission(permission('execute'), () => Promise.reject(new Error('asked')));
  assert.deepEqual(response, { outcome: { outcome: 'selected', optionId: 'opt-reject_once' } });
});

test('a deny rule on a request that offers no reject option answers cancelled, never asks; the card and the audit log say so', async () => {
  const events: { decision: string; by: string; detail?: string }[] = [];
  const transcript = new Transcript();
  const port: PolicyPort = {
    layers: () => ({ settings: new RuleSet([{ request: 'permission', toolKind: ['execute'], decision: 'deny', source: 'settings' }]), workspace: [], protectedPaths: [], autoApprove: 'off' }),
    rememberForWorkspace: () => undefined,
  };
  const gate = new PolicyGate(port, transcript, 'Fake', silent, () => [ROOT], (e) => void events.push(e));
  const response = await gate.permission(permission('execute', ['allow_once', 'allow_always']), () => Promise.reject(new Error('the user was asked')));
  assert.deepEqual(response, { outcome: { outcome: 'cancelled' } });
  assert.match((transcript.entries[0] as ToolEntry).policyNote ?? '', /Refused by ACP Host \(acpHost\.rules: deny\): cancelled \(Fake offers no option to refuse\)/);
  assert.deepEqual(events.map(({ decision, by, detail }) => ({ decision, by, detail })), [{ decision: 'denied', by: 'rule', detail: 'answered cancelled: the agent offered no option to refuse' }]);
});

test('without a policy port every request is served as asked', async () => {
  const transcript = new Transcript();
  const gate = new PolicyGate(undefined, transcript, 'Fake', silent, () => [ROOT]);
  const served: string[] = [];
  await gate.writeTextFile({ sessionId: 's', path: '/ws/.vscode/settings.json', content: '' }, async (r) => void served.push(r.path));
  assert.deepEqual(served, ['/ws/.vscode/settings.json']);
});

test('a path confinement refuses is not asked about, nor served: the gate refuses it (-32602) at once', async () => {
  const transcript = new Transcript();
  const port: PolicyPort = {
    layers: () => ({ settings: new RuleSet([]), workspace: [], protectedPaths: [], autoApprove: 'off' }),
    rememberForWorkspace: () => undefined,
  };
  const gate = new PolicyGate(port, transcript, 'Fake', silent, () => [ROOT]);
  const served: string[] = [];
  for (const path of ['~/.bashrc', '/elsewhere/.bashrc', `${ROOT}/../etc/passwd`]) {
    await assert.rejects(gate.writeTextFile({ sessionId: 's', path, content: '' }, async (r) => void served.push(r.path)), (error: RpcError) => error.code === ErrorCodes.InvalidParams, path);
  }
  assert.deepEqual(served, []);
  assert.equal(transcript.entries.length, 0, 'no card');
});

test('the policy sees paths relative to the session\'s roots, whichever root they are in', async () => {
  const transcript = new Transcript();
  const roots = ['/ws', '/second'];
  const seen: unknown[] = [];
  const port: PolicyPort = {
    layers: () => ({ settings: new RuleSet([]), workspace: [], protectedPaths: ['**/.vscode/**'], autoApprove: 'off' }),
    rememberForWorkspace: () => undefined,
    writeConcern: async (target) => void seen.push(['concern', target.requested, target.real, target.forms.names]),
  };
  const gate = new PolicyGate(port, transcript, 'Fake', silent, () => roots);
  const served: string[] = [];
  await gate.writeTextFile({ sessionId: 's', path: '/second/notes.txt', content: '' }, async (r) => void served.push(r.path));
  assert.deepEqual(served, ['/second/notes.txt']);
  assert.deepEqual(seen, [['concern', '/second/notes.txt', '/second/notes.txt', ['notes.txt']]]);
  // Protected in the second root as in the first: the write waits for the user.
  const pending = gate.writeTextFile({ sessionId: 's', path: '/second/.vscode/settings.json', content: '' }, async (r) => void served.push(r.path));
  const card = await waitingCard(transcript);
  assert.match(card.title, /\.vscode\/settings\.json/);
  transcript.questions.answerPermission(card.toolCallId, 'acp-host:deny');
  await assert.rejects(pending);
  assert.deepEqual(served, ['/second/notes.txt']);
});

test('the gated terminals keep every method of a port that is a class (a spread would drop them)', async () => {
  class Port {
    calls: string[] = [];
    async create() { this.calls.push('create'); return { terminalId: 't' }; }
    async output() { this.calls.push('output'); return { output: '', truncated: false }; }
    async waitForExit() { this.calls.push('waitForExit'); return { exitCode: 0 }; }
    async kill() { this.calls.push('kill'); }
    async release() { this.calls.push('release'); }
  }
  const port = new Port();
  const { gate } = setup();
  const gated = gate.terminals(port)!;
  await gated.create({ sessionId: 's', command: 'ls' });
  await gated.output({ sessionId: 's', terminalId: 't' });
  await gated.waitForExit({ sessionId: 's', terminalId: 't' });
  await gated.kill({ sessionId: 's', terminalId: 't' });
  await gated.release({ sessionId: 's', terminalId: 't' });
  assert.deepEqual(port.calls, ['create', 'output', 'waitForExit', 'kill', 'release']);
});

test('every decision of the policy and every answer to its questions is audited', async () => {
  const events: { kind: string; decision: string; by: string; rule?: string; target: string }[] = [];
  const transcript = new Transcript();
  const port: PolicyPort = {
    layers: () => ({ settings: new RuleSet([{ request: 'write', path: 'dist/**', decision: 'deny', source: 'settings' }]), workspace: [], protectedPaths: [], autoApprove: 'safe' }),
    rememberForWorkspace: () => undefined,
  };
  const gate = new PolicyGate(port, transcript, 'Fake', silent, () => [ROOT], (e) => void events.push(e));
  await assert.rejects(gate.writeTextFile({ sessionId: 's', path: '/ws/dist/a.js', content: '' }, async () => undefined));
  const pending = gate.writeTextFile({ sessionId: 's', path: '/ws/.env', content: '' }, async () => undefined);
  const card = await waitingCard(transcript);
  transcript.questions.answerPermission(card.toolCallId, 'acp-host:allow-once');
  await pending;
  await gate.permission(permission('read'), () => Promise.reject(new Error('asked')));
  assert.deepEqual(events.map(({ kind, decision, by, target }) => `${kind} ${target}: ${decision} by ${by}`), [
    'write /ws/dist/a.js: denied by rule',
    'write /ws/.env: asked by default',
    'write /ws/.env: allowed by user',
    'permission A read tool: allowed by auto',
  ]);
  assert.equal(events[0].rule, 'write dist/**: deny (settings)');
});

test("the agent cancels a write while ACP Host's question waits: the card is withdrawn, nothing is written, the audit says why", async () => {
  const events: { decision: string; detail?: string }[] = [];
  const transcript = new Transcript();
  const port: PolicyPort = {
    layers: () => ({ settings: new RuleSet([]), workspace: [], protectedPaths: [], autoApprove: 'off' }),
    rememberForWorkspace: () => undefined,
  };
  const gate = new PolicyGate(port, transcript, 'Fake', silent, () => ['/ws'], (e) => void events.push(e));
  const served: string[] = [];
  const cancelled = new AbortController();
  const pending = gate.writeTextFile({ sessionId: 's', path: '/ws/.env', content: 'x' }, async (r) => void served.push(r.path), cancelled.signal);
  const card = await waitingCard(transcript);
  cancelled.abort();
  await assert.rejects(pending);
  const after = transcript.entries.find((e): e is ToolEntry => e.kind === 'tool' && e.toolCallId === card.toolCallId);
  assert.equal(after?.permission, undefined);
  assert.deepEqual(after?.permissionAnswer, { outcome: 'withdrawn' });
  assert.match(after?.policyNote ?? '', /the agent withdrew the request/);
  assert.equal(transcript.questions.answerPermission(card.toolCallId, 'acp-host:allow-once'), false, 'nothing left to answer');
  assert.deepEqual(served, []);
  assert.deepEqual(events.map((e) => e.decision), ['asked', 'cancelled']);
  assert.match(events[1]?.detail ?? '', /withdrawn by the agent/);
});

test('a write cancelled before the policy decided is not served, and asks nothing', async () => {
  const { gate, served, transcript } = setup();
  await assert.rejects(gate.writeTextFile({ sessionId: 's', path: `${ROOT}/src/a.ts`, content: 'x' }, async (r) => void served.push(r.path), AbortSignal.abort()), (e: unknown) => (e as RpcError).code === ErrorCodes.RequestCancelled);
  assert.deepEqual(served, []);
  assert.equal(transcript.entries.length, 0);
});
