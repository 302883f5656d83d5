// Step 2 of the demo turn: a `search` tool call that lists the workspace and completes without
// asking. Its output is text with a fenced console block, which is how real agents (Claude
// Code, Codex) report the shell commands they run themselves, so clients meet that shape here.
// The demo runs no command: it lists the cwd in-process, the same on every OS, and shows the
// result as `ls -p` would print it. Returns the markdown for the reply.

import * as path from 'node:path';
import { fenced, text } from './format';
import type { TurnEnv } from './turn-io';
import { listLikeLs } from './workspace';

const COMMAND = 'ls -p';
const SHOWN_ENTRIES = 20;

export async function listStep({ io, session }: TurnEnv): Promise<string> {
  const toolCallId = `list-${session.turnCount}`;
  const dirName = path.basename(session.cwd) || session.cwd;
  io.update({
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `List files in ${dirName}`,
    kind: 'search',
    status: 'in_progress',
    rawInput: { command: COMMAND, cwd: session.cwd },
  });
  await io.pause();

  let names: string[];
  try {
    names = await listLikeLs(session.cwd);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    io.update({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'failed',
      content: [text(fenced(`$ ${COMMAND}\nls: ${reason}`, 'console'))],
    });
    return `I could not list \`${session.cwd}\`: ${reason}.\n\n`;
  }
  const shown = names.slice(0, SHOWN_ENTRIES);
  if (names.length > shown.length) shown.push(`… and ${names.length - shown.length} more`);
  io.update({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    content: [text(fenced([`$ ${COMMAND}`, ...shown].join('\n'), 'console'))],
    rawOutput: { entries: names.length },
  });
  const count = names.length === 1 ? '1 entry' : `${names.length} entries`;
  return `I listed the workspace folder **${dirName}**: ${names.length === 0 ? 'it has no visible entries' : count}.\n\n`;
}
