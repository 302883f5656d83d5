// What one update costs the model fold (Transcript / SessionState, through session/fold.ts as a
// session does), per update kind, in a transcript of 100, 10,000 and 100,000 entries. A fold
// whose cost depends on how far back its entry is (a search from the end, a walk over every
// card) shows here as growth; the target is none: 100,000 / 100 ≤ 1.2×.
import { createRequire } from 'node:module';
import { count, median, ratio, table, verdict } from './stats.mjs';

const require = createRequire(import.meta.url);
const { Transcript } = require('../out/src/session/transcript.js');
const { SessionState } = require('../out/src/session/sessionState.js');
const { foldUpdate } = require('../out/src/session/fold.js');
const { SessionStore } = require('../out/src/host/sessions/sessionStore.js');
const { SecretScrubber } = require('../out/src/runtime/secrets.js');

const SIZES = [100, 10_000, 100_000];
const BATCH = 1000;
const BATCHES = 21;
const SESSIONS = 3; // of each size, built apart (perCall says why)
const log = { info() {}, warn() {}, error: (m) => console.error(m) };
const text = (t) => ({ type: 'text', text: t });
const source = (lines) => Array.from({ length: lines }, (_, i) => `line ${i}: ${'x'.repeat(i % 40)}`);
/** A 100-line file and an edit of it: `n` picks which 4 lines change, as an agent's edit does. */
const OLD = source(100);
const edited = (n) => OLD.map((line, i) => ((i + n) % 25 === 0 ? `${line} edited ${n}` : line)).join('\n');

/**
 * A session whose transcript holds `size` entries: a plan, a tool call, a plan by id, a
 * compaction and a card embedding a client terminal near the start (so a fold that searches back for them walks everything), then prompts, answers and finished tool calls.
 */
function session(size) {
  const model = { transcript: new Transcript(), session: new SessionState(), log };
  const fold = (update) => foldUpdate(update, model);
  fold({ sessionUpdate: 'plan', entries: [{ content: 'first', priority: 'high', status: 'in_progress' }] });
  fold({ sessionUpdate: 'tool_call', toolCallId: 'early', title: 'Edit early', kind: 'edit', status: 'in_progress' });
  fold({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'early', entries: [] } });
  fold({ sessionUpdate: 'compaction_update', compactionId: 'early', status: 'in_progress' });
  fold({ sessionUpdate: 'tool_call', toolCallId: 'early_run', title: 'Run early', kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'early' }] });
  for (let i = 0; model.transcript.entries.length < size; i++) {
    if (i % 3 === 0) model.transcript.addUserPrompt(`prompt ${i}`);
    else if (i % 3 === 1) fold({ sessionUpdate: 'agent_message_chunk', content: text(`answer ${i} `) });
    else fold({ sessionUpdate: 'tool_call', toolCallId: `done_${i}`, title: `Read ${i}`, kind: 'read', status: 'completed' });
  }
  // What streams next goes into an answer at the end, as in a live turn.
  fold({ sessionUpdate: 'agent_message_chunk', content: text('live ') });
  // A client terminal's output is not a session/update: the host hands it to the transcript's cards.
  const apply = (update) => (update.terminalOutput ? model.transcript.tools.updateTerminal('early', update.terminalOutput) : fold(update));
  return { model, fold: apply };
}

/** The updates each kind's row folds: update `n` of a run, as the wire would carry it. */
const KINDS = {
  'agent_message_chunk': (n) => ({ sessionUpdate: 'agent_message_chunk', content: text(`token${n} `) }),
  // Each adds an entry: over the row's 22 batches every session grows by 22,000 (the smallest ends
  // near 22,000 entries, its id table near 0.5 MB; the largest near 1 MB).
  'tool_call (new)': (n) => ({ sessionUpdate: 'tool_call', toolCallId: `new_${n}`, title: `Run ${n}`, kind: 'execute', status: 'in_progress' }),
  'tool_call_update, diff (card near the start)': (n) => ({
    sessionUpdate: 'tool_call_update',
    toolCallId: 'early',
    content: [{ type: 'diff', path: '/w/src/early.ts', oldText: OLD.join('\n'), newText: edited(n) }],
  }),
  'plan (first plan near the start)': (n) => ({
    sessionUpdate: 'plan',
    entries: Array.from({ length: 6 }, (_, i) => ({ content: `step ${i}`, priority: 'medium', status: i < n % 6 ? 'completed' : 'pending' })),
  }),
  'plan_update (plan by id near the start)': (n) => ({
    sessionUpdate: 'plan_update',
    plan: { type: 'items', planId: 'early', entries: Array.from({ length: 6 }, (_, i) => ({ content: `step ${i}`, priority: 'medium', status: i < n % 6 ? 'completed' : 'pending' })) },
  }),
  'compaction_update (near the start)': (n) => ({ sessionUpdate: 'compaction_update', compactionId: 'early', status: n % 2 ? 'in_progress' : 'completed' }),
  'client terminal output (card near the start)': (n) => ({ terminalOutput: { output: `line ${n}\n`, truncated: false, exitStatus: null } }),
  'notice': (n) => ({ sessionUpdate: 'notice', severity: 'info', title: `Notice ${n}` }),
  'usage_update': (n) => ({ sessionUpdate: 'usage_update', used: 1000 + n, size: 200_000 }),
  'available_commands_update': (n) => ({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: `Review ${n % 3}` }, { name: 'test', description: 'Run the tests' }] }),
  'config_option_update': (n) => ({
    sessionUpdate: 'config_option_update',
    configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: n % 2 ? 'a' : 'b', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }],
  }),
};

/**
 * Median µs per call of `build(size)`'s function on `make`'s values, for each of SIZES, on
 * SESSIONS of them built apart for each size. With one session a size, where its objects
 * happened to lie in memory moved a row's growth by up to 30% from one run to the next, a
 * different row each time (three runs, the 11 kinds: 0.70–1.15×); with three, no one session
 * decides its size's figure (0.95–1.11×, the same runs alternating). The sizes take turns batch
 * by batch, so JIT warm-up, GC and the machine's noise fall on all of them alike.
 */
function perCall(build, make) {
  const applies = SIZES.map((size) => Array.from({ length: SESSIONS }, () => build(size)));
  const samples = SIZES.map(() => []);
  let n = 0;
  for (let b = -1; b < BATCHES; b++) {
    applies.forEach((instances, s) => {
      for (const apply of instances) {
        const values = Array.from({ length: BATCH }, () => make(n++));
        const start = performance.now();
        for (const value of values) apply(value);
        if (b >= 0) samples[s].push(((performance.now() - start) * 1000) / BATCH); // batch -1 warms up
      }
    });
  }
  return samples.map(median);
}

/** Median µs per update of `make`'s updates folded into sessions of each size. */
function perUpdate(make) {
  return perCall((size) => session(size).fold, make);
}

/**
 * For comparison, what a new tool call costs a transcript indexed by a Map: an id's Map.get and
 * Map.set and an entry pushed, on a Map and an array of the sessions' sizes (a third of the
 * entries are tool calls). Its growth is the memory's (a bigger Map misses the caches more), not
 * a walk's: the reason the fold indexes ids in an IdTable instead (src/session/idTable.ts).
 */
function newIdInMap() {
  const add = (size) => {
    const ids = new Map();
    const entries = [];
    for (let i = 0; i < size; i++) {
      if (i % 3 === 2) ids.set(`done_${i}`, i);
      entries.push({ kind: 'tool', toolCallId: `done_${i}` });
    }
    return (id) => {
      if (ids.get(id) === undefined) ids.set(id, entries.length);
      entries.push({ kind: 'tool', toolCallId: id, title: 'Run', status: 'in_progress' });
    };
  };
  return perCall(add, (n) => `new_${n}`);
}

/**
 * What a turn's end costs the host, by transcript length: the transcript is saved (each entry
 * fitted to its budget, the newest that fit the transcript's, the agent's secrets masked in them),
 * as SessionTabs does it, into a store whose memento only takes the value. After a first save,
 * each of 7 turns adds a prompt, an answer and 5 tool calls, then saves: median ms. It grows
 * until what is kept reaches the budget (about 20,000 of these entries), and not after.
 */
function turnEndSaves() {
  const memento = { get: () => undefined, keys: () => [], update: () => Promise.resolve() };
  const store = new SessionStore(memento);
  const secrets = new SecretScrubber();
  secrets.add('sk-bench-0123456789abcdef');
  return [1000, 10_000, 100_000, 200_000].map((size) => {
    const { model, fold } = session(size);
    const save = () => store.saveTranscript({ agentName: 'bench', sessionId: 's' }, model.transcript.entries, (kept) => secrets.scrubDeep(kept));
    save();
    const runs = Array.from({ length: 7 }, (_, turn) => {
      model.transcript.addUserPrompt(`prompt of turn ${turn}`);
      fold({ sessionUpdate: 'agent_message_chunk', content: text(`the answer of turn ${turn} `.repeat(20)) });
      for (let i = 0; i < 5; i++) fold({ sessionUpdate: 'tool_call', toolCallId: `turn_${turn}_${i}`, title: `Edit ${i}`, kind: 'edit', status: 'completed', locations: [{ path: `/w/src/f${i}.ts` }] });
      const start = performance.now();
      save();
      return performance.now() - start;
    });
    return { size, ms: median(runs) };
  });
}

export async function folds() {
  const rows = [['update kind', ...SIZES.map((s) => `${count(s)} entries`), `growth ${count(SIZES.at(-1))}/${count(SIZES[0])}`, 'verdict']];
  let worst = 0;
  for (const [kind, make] of Object.entries(KINDS)) {
    const costs = perUpdate(make);
    const growth = costs.at(-1) / costs[0];
    worst = Math.max(worst, growth);
    rows.push([kind, ...costs.map((c) => `${c.toFixed(2)} µs`), ratio(growth), verdict(growth <= 1.2)]);
  }
  const inMap = newIdInMap();
  rows.push(['    for comparison, a new id in a bare Map: Map.get + Map.set + push', ...inMap.map((c) => `${c.toFixed(2)} µs`), ratio(inMap.at(-1) / inMap[0]), '']);
  table(`Fold cost per update by kind and transcript length (median of ${BATCHES * SESSIONS} batches of ${BATCH}: ${BATCHES} on each of ${SESSIONS} sessions a size)`, rows);
  const saves = turnEndSaves();
  table("A turn's end: the transcript saved (fitted to its budget, secrets masked in what is kept), median of 7 turns", [
    ['entries', ...saves.map(({ size }) => count(size)), `growth ${count(saves.at(-1).size)}/${count(saves.at(-2).size)}`],
    ['ms', ...saves.map(({ ms }) => `${ms.toFixed(1)} ms`), ratio(saves.at(-1).ms / saves.at(-2).ms)],
  ]);
  return { worstGrowth: worst };
}

if (import.meta.url === `file://${process.argv[1]}`) await folds();
