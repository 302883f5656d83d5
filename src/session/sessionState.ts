import { Emitter } from 'vscode-jsonrpc';
import type { Event } from 'vscode-jsonrpc';
import type {
  AvailableCommand,
  SessionConfigOption,
  SessionConfigSelectGroup,
  SessionConfigSelectOption,
  SessionConfigSelectOptions,
  SessionModeState,
  SessionUpdate,
} from '../protocol';
import type { AttachmentChip, ConfigOption, Modes, PlanContent, QueuedPromptInfo, ReviewFile, SessionSnapshot } from './model';
import { contextUsage } from './usage';

/**
 * The session's state beside its transcript, folded from the `session/new` answer and the
 * state-bearing `session/update`s (commands, mode, config options, title, usage), which may
 * arrive before that answer or between turns. Lists are full replacements, `session_info_update`
 * is a patch where null clears (ACP §14.9).
 */
export class SessionState {
  private title: string | null = null;
  private commands: SessionSnapshot['commands'] = [];
  private modes: Modes | null = null;
  private configOptions: ConfigOption[] = [];
  private usage: SessionSnapshot['usage'] = null;
  private queue: QueuedPromptInfo[] = [];
  private review: ReviewFile[] = [];
  private reviewNote: string | null = null;
  private follow = true;
  private attachments: AttachmentChip[] = [];
  private attachmentNotice: string | null = null;
  private canFork = false;
  private forkOf: SessionSnapshot['forkOf'] = null;
  private plan: PlanContent | null = null;
  private oldestCheckpoint: number | null = null;
  private readonly changed = new Emitter<void>();
  /** Fired after every change of what `view` returns. */
  readonly onChange: Event<void> = this.changed.event;

  /** What the panel shows. Config options win over legacy modes when an agent sends both (ACP §10). */
  get view(): SessionSnapshot {
    return {
      title: this.title,
      commands: this.commands,
      modes: this.configOptions.length > 0 ? null : this.modes,
      configOptions: this.configOptions,
      usage: this.usage,
      queue: this.queue,
      review: this.review,
      reviewNote: this.reviewNote,
      follow: this.follow,
      attachments: this.attachments,
      attachmentNotice: this.attachmentNotice,
      canFork: this.canFork,
      forkOf: this.forkOf,
      plan: this.plan,
      oldestCheckpoint: this.oldestCheckpoint,
    };
  }

  get currentModeId(): string | undefined {
    return this.modes?.currentModeId;
  }

  /** Returns false for updates that are not session state (transcript entries, unknown kinds). */
  apply(update: SessionUpdate): boolean {
    switch (update.sessionUpdate) {
      case 'available_commands_update':
        this.commands = update.availableCommands.map(commandView);
        break;
      case 'current_mode_update':
        this.setCurrentMode(update.currentModeId);
        return true;
      case 'config_option_update':
        this.configOptions = update.configOptions.map(configOptionView);
        break;
      case 'session_info_update':
        // Absent leaves the title as it is; null clears it.
        if (update.title !== undefined) this.title = update.title;
        break;
      case 'usage_update':
        this.usage = contextUsage(update);
        break;
      default:
        return false;
    }
    this.emit();
    return true;
  }

  /** The state a `session/new` (or load) answer carries. */
  setInitial(modes: SessionModeState | null | undefined, configOptions: readonly SessionConfigOption[] | null | undefined): void {
    if (modes) this.modes = modesView(modes);
    if (configOptions) this.configOptions = configOptions.map(configOptionView);
    this.emit();
  }

  setCurrentMode(modeId: string): void {
    if (!this.modes) return;
    this.modes = { ...this.modes, currentModeId: modeId };
    this.emit();
  }

  /** The complete set, from a `session/set_config_option` answer. */
  setConfigOptions(configOptions: readonly SessionConfigOption[]): void {
    this.configOptions = configOptions.map(configOptionView);
    this.emit();
  }

  /** One option took `value`, the agent said nothing of the others. */
  setConfigValue(configId: string, value: string | boolean): void {
    this.configOptions = this.configOptions.map((o) => (o.id !== configId ? o : o.type === 'boolean' ? { ...o, currentValue: value === true } : { ...o, currentValue: String(value) }));
    this.emit();
  }

  /** A session ends: what its agent advertised goes (the queue, the review and follow stay: they are the user's). */
  reset(): void {
    this.title = null;
    this.commands = [];
    this.modes = null;
    this.configOptions = [];
    this.usage = null;
    this.canFork = false;
    this.emit();
  }

  /** Whether the agent the session is open on advertises (UNSTABLE) session/fork. */
  setCanFork(canFork: boolean): void {
    this.canFork = canFork;
    this.emit();
  }

  /** The workspace's oldest checkpoint still kept (host/checkpoints): older ones can no longer be restored. */
  setOldestCheckpoint(oldest: number | null): void {
    if (oldest === this.oldestCheckpoint) return;
    this.oldestCheckpoint = oldest;
    this.emit();
  }

  /** What the session is a fork of: it stays with the session, whatever its agent does. */
  setForkOf(forkOf: SessionSnapshot['forkOf']): void {
    this.forkOf = forkOf;
    this.emit();
  }

  /** The transcript's current plan (Transcript.onPlan), pinned above the prompt box. */
  setPlan(plan: PlanContent | null): void {
    this.plan = plan;
    this.emit();
  }

  /** Sends the state again unchanged: a picker may show a value the agent refused. */
  republish(): void {
    this.emit();
  }

  setQueue(queue: readonly QueuedPromptInfo[]): void {
    this.queue = [...queue];
    this.emit();
  }

  /** `note`: what the list cannot show, said beside it. */
  setReview(files: readonly ReviewFile[], note: string | null = null): void {
    this.review = [...files];
    this.reviewNote = note;
    this.emit();
  }

  setFollow(follow: boolean): void {
    this.follow = follow;
    this.emit();
  }

  /** The prompt's attachments (the user's: a new session keeps them), and why the last one was refused. */
  setAttachments(attachments: readonly AttachmentChip[], notice: string | null = null): void {
    this.attachments = [...attachments];
    this.attachmentNotice = notice;
    this.emit();
  }

  private emit(): void {
    this.changed.fire();
  }
}

function commandView(command: AvailableCommand): SessionSnapshot['commands'][number] {
  return { name: command.name, description: command.description, hint: command.input?.hint ?? null };
}

function modesView(state: SessionModeState): Modes {
  return {
    currentModeId: state.currentModeId,
    available: state.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description ?? null })),
  };
}

function configOptionView(option: SessionConfigOption): ConfigOption {
  const base = { id: option.id, name: option.name, description: option.description ?? null, category: option.category ?? null };
  if (option.type === 'boolean') return { type: 'boolean', ...base, currentValue: option.currentValue };
  const choice = (o: SessionConfigSelectOption) => ({ value: o.value, name: o.name, description: o.description ?? null });
  // The schema allows a flat list of choices, or a list of named groups.
  const groups = isGrouped(option.options)
    ? option.options.map((g) => ({ name: g.name, choices: g.options.map(choice) }))
    : [{ name: null, choices: option.options.map(choice) }];
  return { type: 'select', ...base, currentValue: option.currentValue, groups };
}

function isGrouped(options: SessionConfigSelectOptions): options is SessionConfigSelectGroup[] {
  return options.length > 0 && 'group' in options[0];
}
