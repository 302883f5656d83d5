// One agent's acpHost.autoApprove as the user writes it (src/policy/autoApprove.ts): a mode, or a
// mode with the tool kinds the user adds to `safe`'s (how `fetch` gets answered); anything else
// is off, and said.
import test from 'node:test';
import assert from 'node:assert/strict';
import { agentAutoApprove } from '../../src/policy/autoApprove';

test('a mode, or { mode, alsoSafe }; an agent not named is off', () => {
  const setting = { Codex: 'safe', Claude: { mode: 'safe', alsoSafe: ['fetch'] }, Gemini: { mode: 'allButProtected' } };
  assert.deepEqual(agentAutoApprove(setting, 'Codex'), { value: { mode: 'safe', alsoSafe: [] } });
  assert.deepEqual(agentAutoApprove(setting, 'Claude'), { value: { mode: 'safe', alsoSafe: ['fetch'] } });
  assert.deepEqual(agentAutoApprove(setting, 'Gemini'), { value: { mode: 'allButProtected', alsoSafe: [] } });
  assert.deepEqual(agentAutoApprove(setting, 'opencode'), { value: { mode: 'off', alsoSafe: [] } });
  assert.deepEqual(agentAutoApprove(setting, 'toString'), { value: { mode: 'off', alsoSafe: [] } }, 'not an inherited property');
});

test('an invalid entry is off, and the problem names the agent', () => {
  for (const bad of ['always', 7, null, ['safe', 'fetch'], { alsoSafe: ['fetch'] }, { mode: 'safe', alsoSafe: 'fetch' }, { mode: 'safe', alsoSafe: [''] }, { mode: 'safe', extra: true }]) {
    const { value, problem } = agentAutoApprove({ Codex: bad }, 'Codex');
    assert.deepEqual(value, { mode: 'off', alsoSafe: [] }, JSON.stringify(bad));
    assert.match(problem ?? '', /Ignored acpHost\.autoApprove for "Codex"/, JSON.stringify(bad));
  }
});
