// The session state beside the transcript, tested like the transcript: by the text a user would
// read in the panel's header and pickers after a sequence of updates.
import test from 'node:test';
import assert from 'node:assert/strict';
import { SessionUpdateSchema } from '../../src/protocol';
import { SessionState } from '../../src/session/sessionState';
import type { SessionView } from '../../src/webview-protocol/session';

function render(view: SessionView): string {
  const lines: string[] = [];
  if (view.title !== null) lines.push(`title: ${view.title}`);
  if (view.commands.length) lines.push(`commands: ${view.commands.map((c) => `/${c.name}${c.hint ? ` <${c.hint}>` : ''}`).join(' ')}`);
  if (view.modes) lines.push(`mode: ${view.modes.available.map((m) => (m.id === view.modes!.currentModeId ? `[${m.name}]` : m.name)).join(' ')}`);
  for (const o of view.configOptions) {
    if (o.type === 'boolean') lines.push(`${o.name}: ${o.currentValue ? 'on' : 'off'}`);
    else lines.push(`${o.name}${o.category ? ` (${o.category})` : ''}: ${o.groups.map((g) => `${g.name ? `${g.name}: ` : ''}${g.choices.map((c) => (c.value === o.currentValue ? `[${c.name}]` : c.name)).join(' ')}`).join(' | ')}`);
  }
  if (view.usage) lines.push(`usage: ${view.usage.used}/${view.usage.size}${view.usage.cost ? ` ${view.usage.cost.amount} ${view.usage.cost.currency}` : ''}`);
  if (view.queue.length) lines.push(`queued: ${view.queue.map((q) => q.text).join(', ')}`);
  return lines.join('\n');
}

function fold(state: SessionState, updates: unknown[]): SessionState {
  for (const u of updates) assert.equal(state.apply(SessionUpdateSchema.parse(u)), true, JSON.stringify(u));
  return state;
}

const modes = {
  currentModeId: 'ask',
  availableModes: [
    { id: 'ask', name: 'Ask' },
    { id: 'code', name: 'Code', description: 'Edits files' },
  ],
};

test('commands, title and usage fold in; a title patch of null clears it, an absent title keeps it', () => {
  const s = fold(new SessionState(), [
    { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'plan', description: 'Plan', input: { hint: 'task' } }, { name: 'help', description: 'Help' }] },
    { sessionUpdate: 'session_info_update', title: 'Fix the bug' },
    { sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount: 0.25, currency: 'USD' } },
    { sessionUpdate: 'session_info_update', updatedAt: '2026-01-01T00:00:00Z' },
  ]);
  assert.equal(render(s.view), 'title: Fix the bug\ncommands: /plan <task> /help\nusage: 1200/200000 0.25 USD');
  fold(s, [{ sessionUpdate: 'session_info_update', title: null }, { sessionUpdate: 'available_commands_update', availableCommands: [] }]);
  assert.equal(render(s.view), 'usage: 1200/200000 0.25 USD');
});

test('modes from session/new, then the agent switching mode itself (either field name)', () => {
  const s = new SessionState();
  s.setInitial(modes, null);
  assert.equal(render(s.view), 'mode: [Ask] Code');
  fold(s, [{ sessionUpdate: 'current_mode_update', currentModeId: 'code' }]);
  assert.equal(render(s.view), 'mode: Ask [Code]');
  fold(s, [{ sessionUpdate: 'current_mode_update', modeId: 'ask' }]);
  assert.equal(render(s.view), 'mode: [Ask] Code');
});

test('config options win over modes; flat and grouped selects, booleans; updates replace the whole set', () => {
  const s = new SessionState();
  s.setInitial(modes, [
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'b', options: [{ group: 'fast', name: 'Fast', options: [{ value: 'a', name: 'A' }] }, { group: 'good', name: 'Good', options: [{ value: 'b', name: 'B' }, { value: 'c', name: 'C' }] }] },
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code' }] },
    { id: 'verbose', name: 'Verbose', type: 'boolean', currentValue: true },
  ]);
  assert.equal(render(s.view), 'Model (model): Fast: A | Good: [B] C\nMode (mode): [Ask] Code\nVerbose: on');
  fold(s, [{ sessionUpdate: 'config_option_update', configOptions: [{ id: 'verbose', name: 'Verbose', type: 'boolean', currentValue: false }] }]);
  assert.equal(render(s.view), 'Verbose: off');
  s.setConfigOptions([]);
  assert.equal(render(s.view), 'mode: [Ask] Code', 'without config options the legacy modes show again');
});

test('transcript updates are not session state; reset forgets the agent state but keeps the queue', () => {
  const s = new SessionState();
  assert.equal(s.apply(SessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } })), false);
  assert.equal(s.apply(SessionUpdateSchema.parse({ sessionUpdate: 'future_kind' })), false);
  s.setInitial(modes, null);
  s.setQueue([{ id: 1, text: 'next please' }]);
  fold(s, [{ sessionUpdate: 'session_info_update', title: 'T' }]);
  let changes = 0;
  s.onChange(() => changes++);
  s.reset();
  assert.equal(render(s.view), 'queued: next please');
  assert.equal(changes, 1);
});
