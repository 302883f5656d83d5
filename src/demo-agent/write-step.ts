// Step 4 of the demo turn: an `edit` tool call behind session/request_permission. The diff is
// shown before the user decides; an allowed write goes through fs/write_text_file so that the
// client can track the edit. Returns the markdown for the reply, or 'cancelled' when the client
// answered the permission request with the `cancelled` outcome (the turn then stops).

import * as path from 'node:path';
import type { PermissionOption, RequestPermissionResponse, ToolCallContent, ToolCallUpdate } from './acp-types';
import { countLines, readIfExists } from './workspace';
import { plural, quote, text } from './format';
import type { PromptSummary } from './prompt';
import type { TurnEnv } from './turn-io';
import { RpcError } from './wire';

export const NOTES_FILE = 'demo-notes.md';

const OPTIONS: PermissionOption[] = [
  { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow demo notes', kind: 'allow_always' },
  { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject-always', name: 'Always reject demo notes', kind: 'reject_always' },
];

export async function writeStep(env: TurnEnv, prompt: PromptSummary): Promise<string | 'cancelled'> {
  const { io, session, caps } = env;
  const file = path.join(session.cwd, NOTES_FILE);
  // Like most real agents, take the old text from disk (the client may have unsaved edits).
  const oldText = await readIfExists(file);
  io.checkpoint();
  const newText = notesWithNewSection(oldText, prompt.text);
  const diff: ToolCallContent = { type: 'diff', path: file, oldText, newText };
  const title = `Write ${NOTES_FILE}`;
  const call: ToolCallUpdate = {
    toolCallId: `write-${session.turnCount}`,
    title,
    kind: 'edit',
    status: 'pending',
    locations: [{ path: file, line: 1 }],
    content: [diff],
    rawInput: { path: file },
  };
  const { toolCallId } = call;
  io.update({ sessionUpdate: 'tool_call', ...call, title });
  await io.pause(2);

  const { decision, why } = await askPermission(env, call);
  if (decision === 'cancelled') return 'cancelled';
  if (decision === 'reject') {
    io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [text(`Not written: ${why}.`)] });
    return `I did not write \`${NOTES_FILE}\` (${why}).\n\n`;
  }

  io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  await io.pause();
  if (caps.fs?.writeTextFile !== true) {
    io.update({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'completed',
      content: [diff, text('Not written: the client did not advertise fs.writeTextFile.')],
    });
    return `Permission granted (${why}), but the client did not advertise \`fs.writeTextFile\`, so I only describe the edit: it would ${oldText === null ? 'create' : 'append a section to'} \`${NOTES_FILE}\`, giving ${plural(countLines(newText), 'line')}.\n\n`;
  }
  try {
    await io.request('fs/write_text_file', { path: file, content: newText });
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [text(`fs/write_text_file failed: ${err.message} (code ${err.code})`)] });
    return `Permission granted (${why}), but the client could not write \`${NOTES_FILE}\`: ${err.message} (code ${err.code}).\n\n`;
  }
  io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [diff] });
  return `Permission granted (${why}): I ${oldText === null ? 'created' : 'added a section to'} \`${NOTES_FILE}\` through \`fs/write_text_file\`; it now has ${plural(countLines(newText), 'line')}.\n\n`;
}

interface Decision {
  decision: 'allow' | 'reject' | 'cancelled';
  /** Why, in words, for the reply. */
  why: string;
}

async function askPermission({ io, session }: TurnEnv, toolCall: ToolCallUpdate): Promise<Decision> {
  if (session.rememberedWrite) {
    return { decision: session.rememberedWrite, why: `remembered "always ${session.rememberedWrite}" from an earlier turn` };
  }
  let answer: RequestPermissionResponse | null;
  try {
    answer = await io.request<RequestPermissionResponse | null>('session/request_permission', { toolCall, options: OPTIONS });
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    return { decision: 'reject', why: `the permission request failed: ${err.message} (code ${err.code})` };
  }
  const outcome = answer?.outcome;
  if (outcome?.outcome === 'cancelled') return { decision: 'cancelled', why: 'cancelled' };
  if (outcome?.outcome !== 'selected') return { decision: 'reject', why: 'the permission answer had no valid outcome' };
  const option = OPTIONS.find((o) => o.optionId === outcome.optionId);
  if (!option) return { decision: 'reject', why: `unknown option id ${JSON.stringify(outcome.optionId)}` };
  const decision = option.kind.startsWith('allow') ? 'allow' : 'reject';
  // "always" is remembered by the agent for this session: later turns do not ask again.
  if (option.kind.endsWith('always')) session.rememberedWrite = decision;
  return { decision, why: `you chose "${option.name}"` };
}

function notesWithNewSection(oldText: string | null, promptText: string): string {
  const section = `## ${new Date().toISOString()}\n\n${quote(promptText.trim() === '' ? '(empty prompt)' : promptText)}\n`;
  if (oldText === null) return `# Demo notes\n\nWritten by the ACP Host demo agent, one section per allowed turn.\n\n${section}`;
  return `${oldText}${oldText.endsWith('\n') || oldText === '' ? '' : '\n'}\n${section}`;
}
