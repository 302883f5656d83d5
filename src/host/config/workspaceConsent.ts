import vscode = require('vscode');
import type { NewAuditEvent } from '../../audit/auditEvent';
import { launchIdentity } from '../../runtime/agentIdentity';
import { consentStatus, readDecisions, withDecision } from './consentRecords';
import type { ConsentStatus, Decision } from './consentRecords';
import { consentDetail, consentFullText, consentMessage, summarize } from './consentText';
import type { ConsentContext } from './consentText';
import type { Proposal } from './workspaceProposals';
import { ReadOnlyDocuments } from '../editor/readOnlyDocuments';

/** globalState key of every workspace's decisions: the user's machine keeps them, not the workspace. */
const STATE_KEY = 'acpHost.workspaceConsent';

export interface ConsentRequest {
  /** The command line (or URL) itself when there is one to decide on. */
  message: string;
  /** Every command line, working directory, env name and MCP server (consentText.ts): escaped, capped to fit the dialog. */
  detail: string;
  /** Everything, no value cut (still escaped): what Show All opens; undefined when `detail` has it all. */
  full: string | undefined;
  proposals: readonly Proposal[];
}

/** undefined: dismissed, nothing decided. */
export type ConsentAnswer = 'allow' | 'deny' | undefined;
export type ConsentPrompter = (request: ConsentRequest) => Promise<ConsentAnswer>;
/** The decision to revoke, of this workspace's; undefined when dismissed. */
export type DecisionPicker = (decisions: readonly Decision[]) => Promise<Decision | undefined>;

/** Who a consent event is about, in the audit log's agent column: a workspace's settings, not one agent. */
const CONSENT_SUBJECT = 'workspace settings';

const ALLOW = 'Allow';
const DENY = 'Don’t Allow';
const SHOW_ALL = 'Show All';

/**
 * Modal: the user answers before anything else happens (Cancel, or Escape, decides nothing).
 * When the dialog could not hold everything, Show All opens the whole text in a read-only
 * editor and asks again.
 */
function modalPrompter(documents: ReadOnlyDocuments): ConsentPrompter {
  return async ({ message, detail, full }) => {
    for (;;) {
      const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW, DENY, ...(full === undefined ? [] : [SHOW_ALL]));
      if (answer !== SHOW_ALL || full === undefined) return answer === ALLOW ? 'allow' : answer === DENY ? 'deny' : undefined;
      await vscode.window.showTextDocument(documents.add('Workspace settings to allow.txt', full), { preview: true });
    }
  };
}

const quickPickDecision: DecisionPicker = async (decisions) => {
  const items = decisions.map((decision) => ({
    label: `${decision.allowed ? '$(check) Allowed' : '$(circle-slash) Not allowed'}: ${decision.setting === 'environment' ? 'agent environment' : decision.name}`,
    description: decision.decidedAt.slice(0, 10),
    detail: decision.summary,
    decision,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Workspace Agent Consent', placeHolder: 'Revoke a decision about this workspace’s settings (it is asked again)' });
  return picked?.decision;
};

/**
 * The user's consent to the values a workspace sets for what runs (workspaceProposals.ts):
 * asked in a modal that shows exactly what would run, remembered per workspace and per exact
 * value in the extension's globalState, revocable. In an untrusted workspace nothing is asked
 * and no workspace value is used.
 */
export class WorkspaceConsent implements vscode.Disposable {
  /** Show All's documents: the whole text of a prompt. */
  private readonly documents = new ReadOnlyDocuments('acp-host-consent', 5);
  /** How the user is asked; integration tests replace it. */
  prompter: ConsentPrompter = modalPrompter(this.documents);
  /** How ACP: Manage Workspace Agent Consent picks a decision; integration tests replace it. */
  picker: DecisionPicker = quickPickDecision;
  private readonly changed = new vscode.EventEmitter<void>();
  /** A decision was made or revoked. */
  readonly onDidChange = this.changed.event;
  /** Proposals already noted in the log: once each, not at every listing of the agents. */
  private readonly noted = new Set<string>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: (message: string) => void,
    /** The workspace's audit log: each decision, its dismissal and its revocation. */
    private readonly audit: (event: NewAuditEvent) => void,
  ) {}

  /** This workspace, as its decisions are kept: its `.code-workspace` file, else its folder. */
  get workspace(): string | undefined {
    return (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString();
  }

  status(proposal: Proposal): ConsentStatus {
    return consentStatus(proposal, vscode.workspace.isTrusted, this.decisions());
  }

  /** This workspace's decisions. */
  decisions(): Decision[] {
    const workspace = this.workspace;
    return workspace === undefined ? [] : (readDecisions(this.state.get(STATE_KEY))[workspace] ?? []);
  }

  /** Says once in the log why a workspace value is not used (`instead`: what is used in its place). */
  note(proposal: Proposal, instead: string): void {
    const status = this.status(proposal);
    if (status === 'allowed' || this.noted.has(`${status}:${proposal.key}`)) return;
    this.noted.add(`${status}:${proposal.key}`);
    const why = { pending: 'waits for your consent (asked when an agent starts)', denied: 'was not allowed', untrusted: 'is ignored: the workspace is not trusted' }[status];
    this.log(`This workspace’s settings define ${summarize(proposal)}; it ${why}.${instead ? ` ${instead}` : ''}`);
  }

  /**
   * Asks, in one prompt, about the proposals not decided yet, and remembers the answer for each.
   * False when the prompt was dismissed (nothing is remembered, and the caller starts nothing).
   * `context` says whose agent a workspace agent would replace, and what MCP servers it would get.
   */
  async ask(proposals: readonly Proposal[], context: ConsentContext): Promise<boolean> {
    const workspace = this.workspace;
    const pending = proposals.filter((p) => this.status(p) === 'pending');
    if (pending.length === 0 || workspace === undefined) return true;
    const detail = consentDetail(pending, context);
    const answer = await this.prompter({
      message: consentMessage(pending),
      detail: detail.text,
      full: detail.cut ? consentFullText(pending, context) : undefined,
      proposals: pending,
    });
    if (answer === undefined) {
      this.log('The workspace’s settings were neither allowed nor refused: nothing was started.');
      for (const proposal of pending) this.record(proposal, 'cancelled', 'dismissed: nothing decided, nothing started');
      return false;
    }
    let decisions = this.decisions();
    const decidedAt = new Date().toISOString();
    for (const proposal of pending) {
      const identity = proposal.setting === 'agents' ? launchIdentity({ kind: 'workspace', workspace }, proposal.value.command, proposal.value.args) : undefined;
      decisions = withDecision(decisions, { key: proposal.key, setting: proposal.setting, name: proposal.name, allowed: answer === 'allow', summary: summarize(proposal), identity, decidedAt });
      this.log(`${answer === 'allow' ? 'Allowed' : 'Not allowed'} for this workspace: ${summarize(proposal)}`);
      this.record(proposal, answer === 'allow' ? 'allowed' : 'denied', `for this workspace (${workspace})`);
    }
    await this.save(workspace, decisions);
    return true;
  }

  /** Forgets one decision of this workspace: its value is asked about again. */
  async revoke(key: string): Promise<Decision | undefined> {
    const workspace = this.workspace;
    const decisions = this.decisions();
    const revoked = decisions.find((d) => d.key === key);
    if (workspace === undefined || revoked === undefined) return undefined;
    await this.save(workspace, decisions.filter((d) => d !== revoked));
    this.log(`Revoked for this workspace: ${revoked.summary}`);
    this.audit({ agent: CONSENT_SUBJECT, kind: 'consent', target: revoked.summary, decision: 'revoked', by: 'user', detail: `for this workspace (${workspace}): asked again` });
    return revoked;
  }

  /** ACP: Manage Workspace Agent Consent: lists this workspace's decisions and revokes the one picked. */
  async manage(): Promise<Decision | undefined> {
    const decisions = this.decisions();
    if (decisions.length === 0) {
      void vscode.window.showInformationMessage('ACP Host has no decisions about this workspace’s settings.');
      return undefined;
    }
    const picked = await this.picker(decisions);
    return picked && this.revoke(picked.key);
  }

  private record(proposal: Proposal, decision: 'allowed' | 'denied' | 'cancelled', detail: string): void {
    this.audit({ agent: CONSENT_SUBJECT, kind: 'consent', target: summarize(proposal), decision, by: 'user', detail });
  }

  private async save(workspace: string, decisions: Decision[]): Promise<void> {
    const store = readDecisions(this.state.get(STATE_KEY));
    if (decisions.length === 0) delete store[workspace];
    else store[workspace] = decisions;
    await this.state.update(STATE_KEY, store);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
    this.documents.dispose();
  }
}
