// elicitation/create in URL mode (ACP §11): which URLs may be offered, the card through its life
// (pending → waiting → completed, or declined / cancelled / ended), `accept` only on the user's
// Open, and `elicitation/complete` closing only the card the user opened. Then the same through
// the controller against test/fixtures/agents/elicit-agent.js, which checks what we answer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { CreateElicitationRequestSchema, ErrorCodes, RpcError } from '../../src/protocol';
import type { CreateElicitationRequest } from '../../src/protocol';
import { clientCapabilities } from '../../src/runtime/ports';
import type { TraceDirection } from '../../src/agent/connection';
import { urlTarget } from '../../src/session/elicitationUrl';
import { Elicitations } from '../../src/session/elicitations';
import type { UrlEntry } from '../../src/session/model';
import { Transcript } from '../../src/session/transcript';
import { EntryViewSchema } from '../../src/webview-protocol/entries';
import { elicitController, lastAgentText, until } from './helpers/elicitAgent';
import { assertSpecMessage, assertSpecValid } from './helpers/officialSchema';

const silent = { info() {}, warn() {}, error() {} };
const request = (url: string, elicitationId = 'e1'): CreateElicitationRequest =>
  CreateElicitationRequestSchema.parse({ sessionId: 's1', mode: 'url', message: 'Sign in to GitHub', elicitationId, url });
const cards = (t: Transcript) => t.entries.filter((e): e is UrlEntry => e.kind === 'urlElicitation');

test('only absolute http(s) URLs with a host are offered; the host is shown as it resolves, with warnings', () => {
  for (const refused of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'command:workbench.action.quit', 'vscode://x', '/relative', 'example.com', 'https://', `https://example.com/${'a'.repeat(9000)}`]) {
    assert.ok('refused' in urlTarget(refused), refused);
  }
  assert.deepEqual(urlTarget('https://github.com/login/device'), { href: 'https://github.com/login/device', host: 'github.com', warnings: [] });
  // A Cyrillic "е" in place of the Latin "e": the host resolves to its punycode name, which is what is shown.
  assert.deepEqual(urlTarget('https://еxample.com/login'), { href: 'https://xn--xample-2of.com/login', host: 'xn--xample-2of.com', warnings: ['punycode'] });
  assert.deepEqual(urlTarget('http://example.com:8080/a b').valueOf(), { href: 'http://example.com:8080/a%20b', host: 'example.com:8080', warnings: ['notHttps'] });
  assert.deepEqual(urlTarget('https://bank.example@evil.example/'), { href: 'https://bank.example@evil.example/', host: 'evil.example', warnings: ['credentials'] });
  assert.deepEqual(urlTarget('http://u:p@xn--bcher-kva.example/').valueOf(), { href: 'http://u:p@xn--bcher-kva.example/', host: 'xn--bcher-kva.example', warnings: ['punycode', 'notHttps', 'credentials'] });
});

test('a refused URL is -32602 and never reaches the transcript', () => {
  const transcript = new Transcript();
  const warnings: string[] = [];
  const elicitations = new Elicitations(transcript, 'Fake', { ...silent, warn: (m: string) => warnings.push(m) });
  assert.throws(
    () => elicitations.create(request('javascript:alert(document.cookie)')),
    (error: unknown) => error instanceof RpcError && error.code === ErrorCodes.InvalidParams && /only http and https/.test(error.message),
  );
  assert.equal(transcript.entries.length, 0);
  assert.match(warnings.join('\n'), /Fake asked the user to open a URL that was refused/);
});

test('pending until the user clicks: accept only then, the card waits, and elicitation/complete closes it; unknown and repeated ids change nothing', async () => {
  const transcript = new Transcript();
  const elicitations = new Elicitations(transcript, 'Fake', silent);
  let answered: unknown;
  void elicitations.create(request('https://github.com/login/device', 'gh-1')).then((a) => (answered = a));
  await new Promise((r) => setImmediate(r));
  const [card] = cards(transcript);
  assert.deepEqual(
    { ...card, requestKey: undefined },
    { kind: 'urlElicitation', requestKey: undefined, agentName: 'Fake', message: 'Sign in to GitHub', toolCallId: null, url: 'https://github.com/login/device', host: 'github.com', warnings: [], state: 'pending' },
  );
  assert.equal(answered, undefined, 'nothing is answered before the user clicks');
  assert.ok(EntryViewSchema.safeParse(card).success, 'the card is a valid view entry');

  assert.equal(elicitations.complete('gh-1'), false, 'a complete before the user opened it is ignored');
  assert.equal(cards(transcript)[0].state, 'pending');

  assert.equal(elicitations.answer(card.requestKey, 'accept', { smuggled: 'content' }), true);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(answered, { action: 'accept' }, 'accept carries no content');
  assertSpecValid('CreateElicitationResponse', answered);
  assert.equal(cards(transcript)[0].state, 'waiting');
  assert.equal(elicitations.answer(card.requestKey, 'decline'), false, 'answered once');

  assert.equal(elicitations.complete('some-other-id'), false);
  assert.equal(cards(transcript)[0].state, 'waiting');
  transcript.questions.cancelWaiting(); // the turn ended: an opened URL still waits for the agent
  assert.equal(cards(transcript)[0].state, 'waiting');
  assert.equal(elicitations.complete('gh-1'), true);
  assert.equal(cards(transcript)[0].state, 'completed');
  assert.equal(elicitations.complete('gh-1'), false, 'a repeated complete is ignored');
  assert.equal(cards(transcript)[0].state, 'completed');
});

test('decline, cancel, the turn ending and the agent going away each end a card once', async () => {
  const transcript = new Transcript();
  const elicitations = new Elicitations(transcript, 'Fake', silent);
  const declined = elicitations.create(request('https://a.example/', 'a'));
  const cancelled = elicitations.create(request('https://b.example/', 'b'));
  const ended = elicitations.create(request('https://c.example/', 'c'));
  const unanswered = elicitations.create(request('https://d.example/', 'd'));
  const [a, b, c] = cards(transcript);
  elicitations.answer(a.requestKey, 'decline');
  elicitations.answer(b.requestKey, 'cancel');
  elicitations.answer(c.requestKey, 'accept');
  transcript.questions.cancelWaiting();
  assert.deepEqual(await Promise.all([declined, cancelled, ended, unanswered]), [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept' }, { action: 'cancel' }]);
  assert.equal(elicitations.complete('a'), false, 'a declined card does not complete');
  transcript.questions.endUrlWaits();
  assert.deepEqual(cards(transcript).map((e) => e.state), ['declined', 'cancelled', 'ended', 'cancelled']);
  assert.equal(elicitations.complete('c'), false, 'too late: the card ended');

  // A restored session cannot answer anything: pending is cancelled, waiting has ended.
  const restored = new Transcript();
  restored.restore([{ ...a, state: 'pending' }, { ...c, state: 'waiting' }]);
  assert.deepEqual(cards(restored).map((e) => e.state), ['cancelled', 'ended']);
});

test('a URL request the agent withdraws ($/cancel_request) shows withdrawn and takes no answer; once opened, a late cancel changes nothing', async () => {
  const transcript = new Transcript();
  const elicitations = new Elicitations(transcript, 'Fake', silent);
  const first = new AbortController();
  const second = new AbortController();
  const withdrawn = elicitations.create(request('https://a.example/', 'a'), first.signal);
  const opened = elicitations.create(request('https://b.example/', 'b'), second.signal);
  const [a, b] = cards(transcript);
  first.abort();
  assert.deepEqual(await withdrawn, { action: 'cancel' });
  assert.equal(elicitations.answer(a.requestKey, 'accept'), false);
  assert.ok(elicitations.answer(b.requestKey, 'accept'));
  second.abort();
  assert.deepEqual(await opened, { action: 'accept' });
  assert.deepEqual(cards(transcript).map((e) => e.state), ['withdrawn', 'waiting']);
  for (const card of cards(transcript)) EntryViewSchema.parse(card);
  assert.equal(elicitations.complete('a'), false, 'a withdrawn card does not complete');
});

test('URL mode is advertised with form mode, only when the panel shows elicitations; the capabilities are valid', () => {
  const ports = { readTextFile: async () => '', log: silent, onTrace: () => undefined };
  assert.equal(clientCapabilities(ports).elicitation, undefined);
  assert.deepEqual(clientCapabilities({ ...ports, forms: true }).elicitation, { form: {}, url: {} });
  assertSpecValid('ClientCapabilities', clientCapabilities({ ...ports, forms: true, runLoginTerminal: async () => ({ exitCode: 0 }) }));
});

// ---------------------------------------------------------------- through the controller, with a fake agent

test('controller: the agent asks, Open answers accept (checked by the agent), its complete closes the card; a javascript: URL is refused', async () => {
  const traces: { direction: TraceDirection; message: unknown }[] = [];
  const c = elicitController(true, (direction, message) => traces.push({ direction, message }));
  try {
    await c.start();
    const turn = c.prompt('url');
    const card = await until(() => cards(c.transcript).find((e) => e.state === 'pending'));
    assert.equal(card.host, 'example.com');
    assert.equal(c.answerElicitation(card.requestKey, 'accept'), true);
    await turn;
    assert.equal(lastAgentText(c), 'answer: {"action":"accept"} for e-1');
    assert.equal(cards(c.transcript)[0].state, 'waiting', 'its complete for another id changed nothing');

    await c.prompt('complete e-1');
    assert.equal(cards(c.transcript)[0].state, 'completed');
    await c.prompt('complete e-1');
    assert.equal(cards(c.transcript)[0].state, 'completed', 'repeated: ignored');

    await c.prompt('url javascript:alert(1)');
    assert.equal(lastAgentText(c), `refused: ${ErrorCodes.InvalidParams} elicitation/create: the URL is refused: only http and https URLs are opened, not javascript:`);
    assert.equal(cards(c.transcript).length, 1, 'nothing shown for it');

    const turn2 = c.prompt('url https://example.org/pay');
    const second = await until(() => cards(c.transcript).find((e) => e.state === 'pending'));
    c.answerElicitation(second.requestKey, 'decline');
    await turn2;
    assert.equal(lastAgentText(c), 'answer: {"action":"decline"} for e-3');

    // Everything we sent is ACP v1 as the official schema has it.
    const initialize = traces.find((t) => t.direction === 'send' && (t.message as { method?: string }).method === 'initialize');
    assert.deepEqual((initialize?.message as { params: { clientCapabilities: { elicitation: unknown } } }).params.clientCapabilities.elicitation, { form: {}, url: {} });
    const answers = traces.filter((t) => t.direction === 'send' && 'result' in (t.message as object) && 'action' in ((t.message as { result: object }).result ?? {}));
    assert.equal(answers.length, 2);
    for (const { message } of answers) assertSpecMessage(message, { from: 'client', requestMethod: 'elicitation/create' });
  } finally {
    await c.stop();
  }
});
