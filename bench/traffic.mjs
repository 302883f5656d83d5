// A deterministic recording of what an agent sends during a long turn, as the `session/update`
// notifications of ACP v1: thoughts, many message chunks (markdown), plans, and tool calls whose
// updates carry output text, diffs and locations. Generated at run time from a fixed seed (a few
// MB: too big to commit, and identical on every run).

const WORDS = ('the of to and a in is it you that was for on are with as be at this have from or one had by but not what all were when we there ' +
  'can an your which their said if do will each about how up out them then she many some so these would other into has more her two like him see ' +
  'function const return import export await async class interface type string number boolean undefined null promise error value index length').split(' ');
const FILES = ['src/session/agentSession.ts', 'src/session/transcript.ts', 'src/webview/main.ts', 'src/agent/connection.ts', 'README.md', 'package.json', 'test/unit/ndjson.test.ts'];
const KINDS = ['read', 'edit', 'execute', 'search', 'edit', 'read'];

/** mulberry32: a tiny seeded PRNG, so the recording is the same bytes every time. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeText(rnd) {
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  /** An LLM-sized chunk: a few tokens, sometimes markdown or a line break. */
  const chunk = () => {
    const r = rnd();
    if (r < 0.05) return `\n\n${words(2)} `;
    if (r < 0.1) return `\`${pick(WORDS)}()\` `;
    if (r < 0.13) return `**${words(2)}** `;
    if (r < 0.15) return `\n- ${words(3)} `;
    return `${words(1 + Math.floor(rnd() * 4))} `;
  };
  /** A source file of `lines` lines, for diffs and command output. */
  const source = (lines) => Array.from({ length: lines }, (_, i) => `${'  '.repeat(i % 4)}${words(3 + (i % 7))};`).join('\n');
  return { pick, words, chunk, source };
}

const text = (t) => ({ type: 'text', text: t });

/**
 * The `session/update`s of step `n` of a turn (a thought, an answer, a tool call), as wire
 * objects. `chunks` scales the number of message chunks per answer.
 */
function* step(rnd, t, n, chunks) {
  for (let i = 0; i < chunks / 4; i++) yield { sessionUpdate: 'agent_thought_chunk', content: text(t.chunk()) };
  for (let i = 0; i < chunks; i++) yield { sessionUpdate: 'agent_message_chunk', content: text(t.chunk()) };
  if (n % 10 === 0) {
    const plan = Array.from({ length: 6 }, (_, i) => ({
      content: `${t.words(5)} (${i + 1})`,
      priority: ['high', 'medium', 'low'][i % 3],
      status: i < (n / 10) % 6 ? 'completed' : i === (n / 10) % 6 ? 'in_progress' : 'pending',
    }));
    yield { sessionUpdate: 'plan', entries: plan };
  }
  const toolCallId = `call_${n}`;
  const kind = KINDS[n % KINDS.length];
  const path = `/workspace/${t.pick(FILES)}`;
  const line = 1 + Math.floor(rnd() * 400);
  yield { sessionUpdate: 'tool_call', toolCallId, title: `${kind} ${path}`, kind, status: 'pending', locations: [{ path, line }], rawInput: { path, line } };
  yield { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' };
  if (kind === 'edit') {
    const oldText = t.source(120);
    const lines = oldText.split('\n');
    for (let i = 0; i < 4; i++) lines[Math.floor(rnd() * lines.length)] = `  ${t.words(6)};`;
    yield { sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'diff', path, oldText, newText: lines.join('\n') }], locations: [{ path, line }, { path, line: line + 40 }] };
  } else {
    let output = '';
    for (let i = 0; i < 3; i++) {
      output += `${t.source(10 + Math.floor(rnd() * 30))}\n`;
      yield { sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'content', content: text(`\`\`\`\n${output}\`\`\``) }] };
    }
  }
  yield { sessionUpdate: 'tool_call_update', toolCallId, status: rnd() < 0.95 ? 'completed' : 'failed' };
}

/** The updates of `turns` turns of `steps` steps each; a `{ turnStart }` marker precedes each turn. */
export function* sessionUpdates({ seed = 1, turns = 1, steps = 300, chunks = 60 } = {}) {
  const rnd = prng(seed);
  const t = makeText(rnd);
  yield { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review the changes' }, { name: 'test', description: 'Run the tests', input: { hint: 'which tests' } }] };
  for (let turn = 0; turn < turns; turn++) {
    yield { turnStart: turn }; // not an update: marks where a user prompt goes (see longTranscript)
    for (let n = 0; n < steps; n++) yield* step(rnd, t, n, chunks);
  }
}

/** One long turn as NDJSON bytes: every update as a `session/update` notification, one per line. */
export function longTurnNdjson(options) {
  const lines = [];
  for (const update of sessionUpdates(options)) {
    if ('turnStart' in update) continue;
    lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_bench', update } }));
  }
  return { bytes: Buffer.from(`${lines.join('\n')}\n`), messages: lines.length };
}

/**
 * A second mix, shaped like a long real session rather than one long answer: plan- and
 * tool-heavy. Every ~20 messages a plan update (the whole plan again, as ACP sends it), and
 * tool calls whose updates carry diffs of whole files (a few lines changed each time) and output,
 * interleaved with short answers. `messages` notifications in all. An agent's edits of a file
 * chain (the old text of one is the new text of the one before); with `chained` false, a line of
 * the file changes between edits (the user's, a formatter's), so no old text is a text seen before.
 */
export function planAndToolNdjson({ seed = 2, messages = 200_000, chained = true } = {}) {
  const rnd = prng(seed);
  const t = makeText(rnd);
  const lines = [];
  const push = (update) => lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess_bench', update } }));
  const files = new Map();
  let plan = Array.from({ length: 8 }, (_, i) => ({ content: `${t.words(6)} (${i + 1})`, priority: ['high', 'medium', 'low'][i % 3], status: 'pending' }));
  for (let n = 0; lines.length < messages; n++) {
    if (n % 20 === 0) {
      // One more step done, or a step reworded: the whole plan goes again.
      plan = plan.map((e, i) => ({ ...e, status: i < (n / 20) % 9 ? 'completed' : i === (n / 20) % 9 ? 'in_progress' : 'pending' }));
      push({ sessionUpdate: 'plan', entries: plan });
    }
    const toolCallId = `call_${n}`;
    const kind = KINDS[n % KINDS.length];
    const path = `/workspace/${t.pick(FILES)}`;
    push({ sessionUpdate: 'tool_call', toolCallId, title: `${kind} ${path}`, kind, status: 'in_progress', locations: [{ path, line: 1 + Math.floor(rnd() * 300) }], rawInput: { path } });
    for (let i = 0; i < 6; i++) push({ sessionUpdate: 'agent_message_chunk', content: text(t.chunk()) });
    if (kind === 'edit') {
      const before = files.get(path) ?? t.source(200);
      const oldText = chained ? before : before.replace(/^[^\n]*/, `  ${t.words(5)};`);
      const edited = oldText.split('\n');
      for (let i = 0; i < 3; i++) edited[Math.floor(rnd() * edited.length)] = `  ${t.words(5)};`;
      const newText = edited.join('\n');
      files.set(path, newText);
      push({ sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'diff', path, oldText, newText }] });
    } else {
      push({ sessionUpdate: 'tool_call_update', toolCallId, content: [{ type: 'content', content: text(`\`\`\`\n${t.source(8)}\n\`\`\``) }] });
    }
    for (let i = 0; i < 4; i++) push({ sessionUpdate: 'agent_message_chunk', content: text(t.chunk()) });
    push({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', rawOutput: { ok: true } });
  }
  lines.length = messages;
  return { bytes: Buffer.from(`${lines.join('\n')}\n`), messages };
}
