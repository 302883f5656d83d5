import type { ConnectionLog } from '../agent/connection';
import { throwIfCancelled } from '../agent/connectionErrors';
import { RpcError } from '../protocol/errors';
import type { ReadTextFileRequest, RequestPermissionRequest, RequestPermissionResponse, WriteTextFileRequest } from '../protocol';
import { Policy } from '../policy/policy';
import type { NewAuditEvent } from '../audit/auditEvent';
import type { PolicyLayers, Verdict } from '../policy/policy';
import { RuleSet, describeRule, exactCommandPattern, exactPathGlob } from '../policy/rules';
import type { PolicyRequest, Rule, SourcedRule } from '../policy/rules';
import { COMMAND_CHARS, escapeHidden, shown } from '../base/shownText';
import { commandLine } from '../runtime/presets';
import { withCreate } from '../runtime/ports';
import type { PolicyPort, TerminalPort } from '../runtime/ports';
import { resolvedField } from '../runtime/auditedPorts';
import { ResolvedPath, judgedForms } from '../runtime/resolvedPath';
import { HOST_ASK_OPTIONS, HOST_ASK_ONCE_OPTIONS, describeReason, pickOption, relatedTool } from './policyCards';
import type { HostAnswer } from './policyCards';
import type { Transcript } from './transcript';
import { withdrawOnCancel } from './withdraw';

/** What a request the host may ask about is, for its card and its error. */
interface Subject {
  kind: 'write' | 'read' | 'terminal';
  sessionId: string;
  verb: 'write' | 'read' | 'run';
  /** The path (absolute, as the agent named it) or the command line. */
  target: string;
  /** Where the path really is, when that differs from `target`: the audit log keeps both. */
  resolved?: string;
  /** How the card shows it: workspace-relative for a path, with the real target of a symlink (`src/notes.txt → .git/config`). */
  shown: string;
  toolKind: 'edit' | 'read' | 'execute';
}

/**
 * ACP Host's own say over one session's agent requests: every `fs/*`, `terminal/create` and
 * `session/request_permission` passes the policy (src/policy/) before it touches VS Code. Allow
 * serves it; deny answers the agent with an error and does nothing; ask puts the question on
 * the transcript (the tool call's card when one is running) and waits for the user, whose
 * "for this session" and "always in this workspace" become rules. A read or write is resolved
 * once (runtime/resolvedPath.ts): the policy judges that resolution and the read or write gets
 * it, and a path that cannot be resolved is refused (-32602) before anything is asked. Without a
 * policy port (tests, the bench) every request is served as asked, its path still confined.
 * Each takes the signal of the agent's request: cancelled (`$/cancel_request`), its question is
 * withdrawn and it is not served.
 */
export class PolicyGate {
  /** "Allow for this session" choices: they end with the session. */
  private sessionRules: SourcedRule[] = [];
  private cached: { host: Omit<PolicyLayers, 'remembered'> & { workspace: readonly SourcedRule[] }; sessionRules: SourcedRule[]; policy: Policy } | undefined;

  constructor(
    private readonly port: PolicyPort | undefined,
    private readonly transcript: Transcript,
    private readonly agentName: string,
    private readonly log: ConnectionLog,
    /** The session's roots, as far as the agent may name paths in them (SessionOrigin.confinement). */
    private readonly roots: () => readonly string[],
    /** The workspace's audit log: each decision of the policy's, and each answer to its questions. */
    private readonly record?: (event: NewAuditEvent) => void,
  ) {}

  async readTextFile(request: ReadTextFileRequest, serve: (request: ReadTextFileRequest, target: ResolvedPath) => Promise<string>, signal?: AbortSignal): Promise<string> {
    const target = await this.resolve(request, 'read');
    if (this.port) await this.check(pathRequest('read', target), { ...pathSubject(request, target), kind: 'read', verb: 'read', toolKind: 'read' }, undefined, signal);
    throwIfCancelled(signal, 'fs/read_text_file');
    return serve(request, target);
  }

  /** `serve` gets the signal too: a write cancelled before VS Code applies it is not applied. */
  async writeTextFile(
    request: WriteTextFileRequest,
    serve: (request: WriteTextFileRequest, target: ResolvedPath, signal?: AbortSignal) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    const target = await this.resolve(request, 'write');
    if (this.port) await this.check(pathRequest('write', target), { ...pathSubject(request, target), kind: 'write', verb: 'write', toolKind: 'edit' }, await this.port.writeConcern?.(target), signal);
    throwIfCancelled(signal, 'fs/write_text_file');
    return serve(request, target, signal);
  }

  /** The session's terminals, with `terminal/create` passing the policy first. */
  terminals(terminals: TerminalPort | undefined): TerminalPort | undefined {
    if (!terminals || !this.port) return terminals;
    return withCreate(terminals, async (request, signal) => {
      const line = commandLine(request.command, request.args ?? []);
      // Where it runs counts too (the terminal port confines the cwd itself).
      const cwd = request.cwd ? await judgedForms(request.cwd, this.roots()) : undefined;
      await this.check({ kind: 'terminal', paths: cwd?.names ?? [], absolutePaths: cwd?.absolute, command: line }, { kind: 'terminal', sessionId: request.sessionId, verb: 'run', target: line, shown: line, toolKind: 'execute' }, undefined, signal);
      throwIfCancelled(signal, 'terminal/create');
      return terminals.create(request);
    });
  }

  /**
   * The agent's own permission request: a rule or auto-approve may answer it (the card says
   * so); otherwise it is the user's, through `askUser`.
   */
  async permission(request: RequestPermissionRequest, askUser: () => Promise<RequestPermissionResponse>): Promise<RequestPermissionResponse> {
    if (!this.port) return askUser();
    const { toolCall, options } = request;
    const roots = this.roots();
    const named = [...(toolCall.locations ?? []).map((l) => l.path), ...(toolCall.content ?? []).flatMap((c) => (c.type === 'diff' ? [c.path] : []))];
    // A path outside the session's roots is seen without its root (`home/me/.ssh/config`): still protected.
    const forms = await Promise.all(named.map((p) => judgedForms(p, roots)));
    const toolKind = toolCall.kind ?? this.transcript.tools.kindOf(toolCall.toolCallId);
    const verdict = this.policy().decide({ kind: 'permission', paths: forms.flatMap((f) => f.names), absolutePaths: forms.flatMap((f) => f.absolute), toolKind });
    if (verdict.decision === 'ask') return askUser();
    const option = pickOption(options, verdict.decision);
    if (!option && verdict.decision === 'allow') {
      // Only "always" to allow with: answering it would end the host's say over this tool.
      this.transcript.tools.notePolicy(toolCall, `ACP Host would allow this (${describeReason(verdict)}), but ${shown(this.agentName)} offers no "allow once": answering "always" would stop it asking, so you decide.`);
      return askUser();
    }
    const how = verdict.decision === 'allow' ? 'Allowed' : 'Refused';
    // A deny with nothing to refuse with is answered `cancelled`: the agent does not go ahead, and the user is not asked to overrule their own rule.
    const answered = option ? `"${shown(option.name)}"` : `cancelled (${shown(this.agentName)} offers no option to refuse)`;
    this.transcript.tools.notePolicy(toolCall, `${how} by ACP Host (${escapeHidden(describeReason(verdict))}): ${answered}`);
    this.record?.({
      agent: this.agentName,
      sessionId: request.sessionId,
      kind: 'permission',
      target: toolCall.title ?? toolCall.toolCallId,
      decision: verdict.decision === 'allow' ? 'allowed' : 'denied',
      by: verdict.reason.by === 'auto' ? 'auto' : 'rule',
      ...ruleOf(verdict),
      detail: option ? `answered ${JSON.stringify(option.name)} (${option.kind})` : 'answered cancelled: the agent offered no option to refuse',
    });
    this.log.info(`${this.agentName}: ${how.toLowerCase()} permission for ${toolCall.title ?? toolCall.toolCallId} (${describeReason(verdict)})`);
    return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } };
  }

  /** The remembered choices of this session, to list and revoke. */
  get rememberedForSession(): readonly SourcedRule[] {
    return this.sessionRules;
  }

  forgetForSession(rule: SourcedRule): void {
    this.sessionRules = this.sessionRules.filter((r) => r !== rule);
  }

  /** Returns when the request may be served; throws the error the agent gets when it may not. */
  private async check(request: PolicyRequest, subject: Subject, concern?: string, signal?: AbortSignal): Promise<void> {
    const verdict = this.policy().decide(request);
    const audit = (decision: NewAuditEvent['decision'], by: NewAuditEvent['by'], detail: string) =>
      this.record?.({ agent: this.agentName, sessionId: subject.sessionId, kind: subject.kind, target: subject.target, ...(subject.resolved ? { resolved: subject.resolved } : {}), decision, by, ...ruleOf(verdict), detail });
    const byRule = verdict.reason.by === 'rule' ? 'rule' : 'default';
    if (verdict.decision === 'deny') {
      audit('denied', byRule, describeReason(verdict));
      throw refused(subject, describeReason(verdict));
    }
    if (verdict.decision === 'allow' && !concern) {
      // A default allow is the host's ordinary serving, which the served port records.
      if (byRule === 'rule') audit('allowed', 'rule', describeReason(verdict));
      return;
    }
    const why = [verdict.decision === 'ask' ? describeReason(verdict) : undefined, concern].filter(Boolean).join('; ');
    audit('asked', byRule, why);
    const answer = await this.ask(subject, why, verdict.decision === 'ask' && !concern, signal);
    if (answer === 'cancelled') audit('cancelled', 'auto', signal?.aborted ? 'withdrawn by the agent before the user answered' : 'not answered before the turn ended, was cancelled, or the agent stopped');
    else audit(answer === 'deny' ? 'denied' : 'allowed', 'user', `chose ${JSON.stringify(HOST_ASK_OPTIONS.find((o) => o.answer === answer)?.name)}`);
    switch (answer) {
      case 'once':
        return;
      case 'session':
        this.sessionRules = [...this.sessionRules, ...remembered(request, subject).map((rule) => ({ ...rule, source: 'session' as const }))];
        return;
      case 'workspace':
        for (const rule of remembered(request, subject)) this.port?.rememberForWorkspace(rule);
        return;
      case 'deny':
        throw refused(subject, 'the user denied it');
      case 'cancelled':
        throw refused(subject, 'the question was withdrawn before the user answered (cancelled, stopped or the turn ended)');
    }
  }

  /** Asks on the card of the tool call doing it, when one is running; else on a card of its own. */
  private async ask(subject: Subject, why: string, rememberable: boolean, signal?: AbortSignal): Promise<HostAnswer> {
    const related = relatedTool(this.transcript.entries, subject);
    // Its own card's id is one no agent can guess: no update or request of the agent's can name it.
    const toolCallId = related ?? `acp-host-ask-${crypto.randomUUID()}`;
    // The agent's name and the path or command line are shown escaped, one line, capped (shownText.ts).
    const [agent, target] = [shown(this.agentName), shown(subject.shown, COMMAND_CHARS)];
    if (!related) this.transcript.tools.hostCard({ toolCallId, title: `${capitalise(subject.verb)} ${target}`, kind: subject.toolKind, status: 'pending' });
    const options = rememberable ? HOST_ASK_OPTIONS : HOST_ASK_ONCE_OPTIONS;
    const offered = options.map(({ optionId, name, kind }) => ({ optionId, name, kind }));
    const asked = this.transcript.questions.askForHost(toolCallId, offered, `ACP Host asks before ${agent} may ${subject.verb} ${target}: ${escapeHidden(why)}`);
    withdrawOnCancel(signal, asked, () => this.transcript.questions.withdraw({ permission: toolCallId }));
    const response = await asked;
    const chosen = response.outcome.outcome === 'selected' ? options.find((o) => o.optionId === (response.outcome as { optionId: string }).optionId) : undefined;
    const answer: HostAnswer = chosen?.answer ?? 'cancelled';
    const allowed = answer !== 'deny' && answer !== 'cancelled';
    if (!related) this.transcript.tools.hostCard({ toolCallId, status: allowed ? 'completed' : 'failed' });
    this.transcript.tools.notePolicy(
      { toolCallId },
      `ACP Host asked before ${agent} could ${subject.verb} ${target}: ${chosen ? `"${chosen.name}"` : signal?.aborted ? 'the agent withdrew the request' : 'no answer (cancelled)'}`,
    );
    return answer;
  }

  /** Confines the request's path, once; a refusal is audited and answered -32602, before any question. */
  private async resolve(request: { sessionId: string; path: string }, kind: 'read' | 'write'): Promise<ResolvedPath> {
    try {
      return await ResolvedPath.resolve(request.path, this.roots(), this.log);
    } catch (error) {
      this.record?.({ agent: this.agentName, sessionId: request.sessionId, kind, target: request.path, decision: 'denied', by: 'default', detail: (error as Error).message });
      throw error;
    }
  }

  private policy(): Policy {
    const host = this.port!.layers(this.agentName);
    if (this.cached?.host !== host || this.cached.sessionRules !== this.sessionRules) {
      const remembered = new RuleSet([...host.workspace, ...this.sessionRules]);
      this.cached = { host, sessionRules: this.sessionRules, policy: new Policy({ ...host, remembered }) };
    }
    return this.cached.policy;
  }
}

/**
 * The rules a remembered "allow" becomes: this exact command line, or this exact file by each of
 * its names (an allow opens a path only when it covers every name: a symlink's and its target's,
 * one per workspace folder holding it).
 */
function remembered(request: PolicyRequest, subject: Subject): Rule[] {
  if (request.kind === 'terminal') return [{ request: 'terminal', command: exactCommandPattern(subject.target), decision: 'allow' }];
  return request.paths.map((path) => ({ request: request.kind, path: exactPathGlob(path), decision: 'allow' }));
}

/** What the policy judges of a read or write: every form of its one resolution. */
function pathRequest(kind: 'read' | 'write', target: ResolvedPath): PolicyRequest {
  return { kind, paths: target.forms.names, absolutePaths: target.forms.absolute };
}

function pathSubject(request: { sessionId: string; path: string }, target: ResolvedPath): Pick<Subject, 'sessionId' | 'target' | 'resolved' | 'shown'> {
  return { sessionId: request.sessionId, target: request.path, ...resolvedField(target), shown: target.forms.shown };
}

/** The rule that decided, in words, for the audit log. */
function ruleOf(verdict: Verdict): { rule?: string } {
  return verdict.reason.by === 'rule' ? { rule: describeRule(verdict.reason.rule) } : {};
}

function refused(subject: Subject, why: string): RpcError {
  return RpcError.refused(`ACP Host's policy refused to ${subject.verb} ${subject.target}: ${why}. Nothing was done.`);
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
