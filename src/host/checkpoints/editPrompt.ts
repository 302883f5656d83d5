import type { CheckpointSession, Checkpoints } from './checkpoints';

/** Said in the transcript when an edited prompt goes to the same session (the agent cannot fork it). */
export const REMEMBERS_NOTE =
  'You edited an earlier message: the files are back as they were before it, and the edited prompt follows. The agent cannot fork this session, so it still remembers the old message and everything after it.';

/** The session whose past message is edited, as far as the edit needs it. */
export interface EditedSession extends CheckpointSession {
  readonly runtime: { readonly features: ReadonlySet<string> };
  readonly currentSessionId: string | undefined;
  readonly transcript: CheckpointSession['transcript'] & { addNote(message: string): void };
  prompt(text: string): Promise<void>;
}

export interface EditHost {
  readonly checkpoints: Pick<Checkpoints, 'checkpointAt' | 'restore'>;
  /** A fork of the session holding the conversation before the edited message, shown and started. */
  forkBefore(): Promise<{ prompt(text: string): Promise<void> }>;
}

/**
 * "Edit" on the user message at entry `index`, sent as `text`: the files go back to that message's
 * checkpoint (shown, then confirmed: declining sends nothing). An agent with session/fork gets the
 * edited prompt in a fork holding the conversation before that message; any other, in the same
 * session, after a note saying it still remembers the old turn.
 */
export async function editPastPrompt(host: EditHost, session: EditedSession, index: number, text: string): Promise<void> {
  const checkpoint = host.checkpoints.checkpointAt(session, index);
  const original = (session.transcript.entries[index] as { text: string }).text;
  if (!(await host.checkpoints.restore(checkpoint, original))) return;
  if (session.runtime.features.has('fork') && session.currentSessionId !== undefined) {
    const fork = await host.forkBefore();
    await fork.prompt(text);
    return;
  }
  session.transcript.addNote(REMEMBERS_NOTE);
  await session.prompt(text);
}
