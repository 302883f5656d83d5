import { FILE_HEADERS_ONLY, createTwoFilesPatch } from 'diff';
import type { DiffSource } from '../session/diffTexts';
import type { Entry, PermissionAnswer, PlanItem, ToolContent, ToolEntry, TurnEnd } from '../session/model';
import { stopReasonText } from '../webview-protocol/stopReasons';

/**
 * A conversation as Markdown (ACP: Export Conversation as Markdown…): the transcript's entries in
 * order, the agent's markdown as it is, everything else as plain Markdown. One pass over the
 * entries. Agent strings that are not markdown (titles, paths, outputs) are flattened to one line
 * or fenced, so they cannot break the document's structure.
 */
export interface ConversationExport {
  title: string;
  agentName: string;
  /** When it was exported, as the header says it (ISO 8601). */
  date: string;
  /** The session's roots: a location under one is written relative to it. */
  roots: readonly string[];
  entries: readonly Entry[];
  /** The full texts of a diff, while the session keeps them (else its summary's preview is written). */
  diffSource(index: number, contentIndex: number): DiffSource | undefined;
}

export function conversationMarkdown(source: ConversationExport): string {
  const parts = [`# ${oneLine(source.title)}`, `- Agent: ${oneLine(source.agentName)}\n- Exported: ${source.date}`];
  source.entries.forEach((entry, index) => {
    const part = entryMarkdown(entry, index, source);
    if (part) parts.push(part);
  });
  return `${parts.join('\n\n')}\n`;
}

function entryMarkdown(entry: Entry, index: number, source: ConversationExport): string {
  switch (entry.kind) {
    case 'user':
      return `## You\n\n${closeFences(entry.text)}${entry.attachments?.length ? `\n\n${entry.attachments.map((a) => `- Attached ${a.kind}: ${oneLine(a.label)}`).join('\n')}` : ''}`;
    case 'agent':
      return `## ${oneLine(source.agentName)}\n\n${closeFences(entry.text)}`;
    case 'thought':
      return `> **Thinking**\n>\n${quote(entry.text)}`;
    case 'tool':
      return toolMarkdown(entry, index, source);
    case 'plan':
      return `**Plan**\n\n${taskList(entry.entries)}`;
    case 'planById':
      if (!entry.content) return `**Plan ${oneLine(entry.planId)}** removed.`;
      if (entry.content.type === 'items') return `**Plan**\n\n${taskList(entry.content.entries)}`;
      if (entry.content.type === 'markdown') return `**Plan**\n\n${closeFences(entry.content.text)}`;
      return `**Plan**: ${oneLine(entry.content.uri)}`;
    case 'turnEnd':
      return `*${turnEndText(entry)}*\n\n---`;
    case 'error':
      return `**Error:** ${oneLine(entry.message)}`;
    case 'note':
      return `*${oneLine(entry.message)}*`;
    case 'notice':
      return `**${entry.severity === 'info' ? 'Notice' : entry.severity === 'warning' ? 'Warning' : 'Error'}: ${oneLine(entry.title)}**${entry.description ? `\n\n${quote(entry.description)}` : ''}`;
    case 'compaction':
      return `**Context compacted** (${oneLine(entry.status)})${entry.summary ? `\n\n${quote(entry.summary)}` : ''}${entry.error ? `\n\nError: ${oneLine(entry.error)}` : ''}`;
    case 'elicitation':
      return `**${oneLine(entry.agentName)} asked:** ${oneLine(entry.title ?? entry.message)} (${entry.state})${entry.content ? `\n\n${fence(JSON.stringify(entry.content, null, 2), 'json')}` : ''}`;
    case 'urlElicitation':
      return `**${oneLine(entry.agentName)} asked to open** <${oneLine(entry.url).replace(/[<>]/g, encodeURIComponent)}> (${entry.state})`;
  }
}

function toolMarkdown(entry: ToolEntry, index: number, source: ConversationExport): string {
  const lines = [`### Tool: ${oneLine(entry.title)}`, '', `- Kind: ${oneLine(entry.toolKind)}${entry.name ? ` (${oneLine(entry.name)})` : ''}`, `- Status: ${entry.status}`];
  if (entry.locations.length) lines.push(`- Locations: ${entry.locations.map((l) => code(`${relative(l.path, source.roots)}${l.line === null ? '' : `:${l.line}`}`)).join(', ')}`);
  if (entry.permissionAnswer) lines.push(`- Permission: ${permissionText(entry.permissionAnswer)}`);
  else if (entry.permission) lines.push(`- Permission asked: ${entry.permission.map((o) => oneLine(o.name)).join(' / ')} (not answered)`);
  if (entry.policyNote) lines.push(`- ACP Host: ${oneLine(entry.policyNote)}`);
  const blocks = entry.content.map((content, contentIndex) => contentMarkdown(content, source.diffSource(index, contentIndex), source.roots));
  return [lines.join('\n'), ...blocks].join('\n\n');
}

function contentMarkdown(content: ToolContent, diff: DiffSource | undefined, roots: readonly string[]): string {
  switch (content.type) {
    case 'text':
      return fence(content.text, '');
    case 'terminal': {
      const exit = content.exitStatus;
      const status = exit === null ? 'running' : exit.signal ? `killed (${exit.signal})` : `exit ${exit.exitCode ?? '?'}`;
      return `Terminal (${status})${content.truncated ? ', earlier output truncated' : ''}:\n\n${fence(content.output, 'text')}`;
    }
    case 'diff': {
      const path = relative(content.path, roots);
      if (diff) return fence(createTwoFilesPatch(`a/${path}`, `b/${path}`, diff.oldText ?? '', diff.newText, '', '', { context: 3, headerOptions: FILE_HEADERS_ONLY }), 'diff');
      // The full texts are gone (the session's budget for them, or a reload): what the card shows.
      const preview = [`--- a/${path}`, `+++ b/${path}`, ...content.preview, ...(content.previewTruncated ? ['…'] : [])].join('\n');
      return `${code(path)}: +${content.added} −${content.removed}${content.isNewFile ? ' (new file)' : ''}, changed lines only:\n\n${fence(preview, 'diff')}`;
    }
  }
}

function permissionText(answer: PermissionAnswer): string {
  if (answer.outcome === 'selected') return `${oneLine(answer.name)} (${answer.kind})`;
  return answer.outcome === 'withdrawn' ? 'withdrawn by the agent' : 'dismissed';
}

function turnEndText(end: TurnEnd): string {
  // The panel's sentence, without its full stop: here it is the first of the parts joined by ' · '.
  const parts = [stopReasonText(end.stopReason).replace(/\.$/, '')];
  if (end.error) parts.push(`${oneLine(end.error.message)}${end.error.code === null ? '' : ` (error ${end.error.code})`}`);
  const tokens = end.usage?.tokens;
  if (tokens) parts.push(`${tokens.total} tokens (in ${tokens.input}, out ${tokens.output})`);
  const cost = end.usage?.cost;
  if (cost) parts.push(`${cost.amount} ${oneLine(cost.currency)}`);
  return parts.join(' · ');
}

function taskList(items: readonly PlanItem[]): string {
  return items.map((item) => `- [${item.status === 'completed' ? 'x' : ' '}] ${oneLine(item.content)}${item.status === 'in_progress' ? ' *(in progress)*' : ''}`).join('\n');
}

/** `text` in a fence longer than any run of backticks inside it, so no line of it can close the fence. */
export function fence(text: string, language: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${language}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${marks}`;
}

/** Inline code that holds any text: delimiters longer than its backtick runs, padded when it starts or ends with one. */
function code(text: string): string {
  const flat = oneLine(text);
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const marks = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${marks}${pad}${flat}${pad}${marks}`;
}

/**
 * `text` with a fence it leaves open closed at its end (an answer cut off mid-block): otherwise the
 * rest of the document would read as that code block. CommonMark: a fence closes with the same
 * character, at least as many of them, and nothing after.
 */
function closeFences(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const marks = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!marks) continue;
    if (open === undefined) {
      // A backtick fence's info string may hold no backtick.
      if (!(marks[1][0] === '`' && marks[2].includes('`'))) open = marks[1];
    } else if (marks[1][0] === open[0] && marks[1].length >= open.length && marks[2].trim() === '') open = undefined;
  }
  return open === undefined ? text : `${text}${text.endsWith('\n') ? '' : '\n'}${open}`;
}

function quote(text: string): string {
  return text.split('\n').map((line) => (line ? `> ${line}` : '>')).join('\n');
}

/** Agent text for a heading or a list item: one line (a newline would end it early). */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** `path` relative to the first root it lies under, `/`-separated; as it is when it lies under none. */
function relative(path: string, roots: readonly string[]): string {
  const slashed = path.replace(/\\/g, '/');
  for (const root of roots) {
    const base = root.replace(/\\/g, '/').replace(/\/+$/, '');
    if (slashed.startsWith(`${base}/`)) return slashed.slice(base.length + 1);
  }
  return slashed;
}
