import type { PermissionOption } from './model';
import type { Transcript } from './transcript';

/** What the keyboard answers a waiting permission with (acpHost.acceptPermission, acpHost.rejectPermission). */
export type ShortcutAnswer = 'allow' | 'reject';

/** ACP's PermissionOptionKind: the once-only option first, so a key press never grants more than one call. */
const PREFERRED: Record<ShortcutAnswer, PermissionOption['kind'][]> = {
  allow: ['allow_once', 'allow_always'],
  reject: ['reject_once', 'reject_always'],
};

/**
 * The option that answers the oldest waiting permission `answer`-wise: its first `allow_once`
 * (else `allow_always`), or its first `reject_once` (else `reject_always`). Throws, saying why,
 * when no permission waits or it offers no such option.
 */
export function shortcutChoice(transcript: Pick<Transcript, 'questions' | 'tools'>, answer: ShortcutAnswer): { toolCallId: string; optionId: string } {
  const toolCallId = transcript.questions.firstPermission;
  if (toolCallId === undefined) throw new Error('No permission request is waiting.');
  const options = transcript.tools.entry(toolCallId)?.permission ?? [];
  for (const kind of PREFERRED[answer]) {
    const option = options.find((o) => o.kind === kind);
    if (option) return { toolCallId, optionId: option.optionId };
  }
  throw new Error(`The waiting permission request offers no ${answer === 'allow' ? 'allow' : 'reject'} option.`);
}
