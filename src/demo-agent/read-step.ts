// Step 3 of the demo turn: a `read` tool call. The agent picks a file itself, then reads it
// through the client (fs/read_text_file), which sees unsaved editor buffers. Returns the
// markdown that reports the outcome in the reply.

import * as path from 'node:path';
import type { ReadTextFileResponse } from './acp-types';
import { plural, quote, text } from './format';
import type { TurnEnv } from './turn-io';
import { RpcError } from './wire';
import { countLines, findDemoFile } from './workspace';

const READ_LIMIT = 20;

export async function readStep({ io, session, caps }: TurnEnv): Promise<string> {
  const file = await findDemoFile(session.cwd);
  io.checkpoint();
  if (file === undefined) return `There is no regular file in \`${session.cwd}\`, so I had nothing to read.\n\n`;

  const name = path.basename(file);
  const toolCallId = `read-${session.turnCount}`;
  const request = { path: file, line: 1, limit: READ_LIMIT };
  io.update({
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `Read ${name}`,
    kind: 'read',
    status: 'pending',
    locations: [{ path: file, line: 1 }],
    rawInput: request,
  });
  await io.pause(2);
  io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  await io.pause();

  if (caps.fs?.readTextFile !== true) {
    io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [text('Not read: the client did not advertise fs.readTextFile.')] });
    return `I picked **${name}**, but the client did not advertise \`fs.readTextFile\`, so I did not read it.\n\n`;
  }

  let content: unknown;
  try {
    content = (await io.request<ReadTextFileResponse | null>('fs/read_text_file', request))?.content;
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [text(`fs/read_text_file failed: ${err.message} (code ${err.code})`)] });
    return `I tried to read **${name}** through \`fs/read_text_file\`, but the client answered with an error: ${err.message} (code ${err.code}).\n\n`;
  }
  if (typeof content !== 'string') {
    io.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [text('fs/read_text_file returned no `content` string.')] });
    return `I asked the client for **${name}**, but its answer had no \`content\` string.\n\n`;
  }

  const lines = countLines(content);
  const firstLine = content.split('\n')[0].replace(/\r$/, '');
  const summary = `Read ${plural(lines, 'line')} (${plural(content.length, 'character')}) from line 1, limit ${READ_LIMIT}.`;
  io.update({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    content: [text(firstLine === '' ? summary : `${summary}\nFirst line: ${firstLine}`)],
    rawOutput: { lines, chars: content.length },
  });
  const first = firstLine.trim() === '' ? 'Its first line is empty.' : `Its first line is:\n\n${quote(firstLine, 200)}`;
  return `I read **${name}** through \`fs/read_text_file\` and got ${plural(lines, 'line')}, ${plural(content.length, 'character')}. ${first}\n\n`;
}
