import { CheckpointMessages } from './checkpointMessages';
import { EMPTY_SESSION } from './protocol';
import type { EntryView, HostToView, SessionView, StatusView } from './protocol';

/** What changed since the last render, so the render touches only that part of the DOM. */
export interface Changes {
  /** Everything was replaced: rebuild the transcript. */
  snapshot: boolean;
  entries: Set<number>;
  status: boolean;
  session: boolean;
}

/**
 * The webview's mirror of the host's state, built only from host messages. Messages are applied
 * here as they arrive; the DOM then catches up from `take()` (see main.ts for when).
 */
export class Mirror {
  /** Sparse only if the host ever skips an index; the transcript shows a hole as a placeholder. */
  entries: (EntryView | undefined)[] = [];
  status: StatusView | null = null;
  session: SessionView = EMPTY_SESSION;
  private changes = noChanges();
  private readonly checkpoints = new CheckpointMessages();

  apply(message: HostToView): void {
    switch (message.type) {
      case 'batch':
        // A frame's worth of host changes, in the order they happened.
        message.messages.forEach((m) => this.apply(m));
        break;
      case 'snapshot':
        this.entries = message.entries;
        this.checkpoints.reset(message.entries);
        this.status = message.status;
        this.session = message.session;
        this.changes = { snapshot: true, entries: new Set(), status: true, session: true };
        break;
      case 'entry':
        this.checkpoints.replaced(message.index, this.entries[message.index], message.entry);
        this.entries[message.index] = message.entry;
        this.touch(message.index);
        break;
      case 'append': {
        const entry = this.entries[message.index];
        if (entry?.kind !== 'user' && entry?.kind !== 'agent' && entry?.kind !== 'thought') {
          console.warn(`ACP Host: ignored an append to entry ${message.index}, which is not a text entry`);
          return;
        }
        entry.text += message.text; // our own parsed copy: mutating it is safe
        this.touch(message.index);
        break;
      }
      case 'status':
        this.status = message.status;
        this.changes.status = true;
        break;
      case 'session':
        // Restore checkpoint and Edit are disabled on a message once its checkpoint is dropped: an
        // eviction, which a long session meets at every prompt. ("Fork from here" needs no render:
        // Transcript.offerFork.)
        for (const index of this.checkpoints.changed(this.session.oldestCheckpoint, message.session.oldestCheckpoint)) this.touch(index);
        this.session = message.session;
        this.changes.session = true;
        break;
    }
  }

  /** Marks an entry for re-rendering (a host change, or a presentation change such as "Show all"). */
  touch(index: number): void {
    if (!this.changes.snapshot) this.changes.entries.add(index);
  }

  take(): Changes {
    const changes = this.changes;
    this.changes = noChanges();
    return changes;
  }
}

function noChanges(): Changes {
  return { snapshot: false, entries: new Set(), status: false, session: false };
}
