import type { ContentBlock, PromptCapabilities } from '../protocol';
import type { AttachmentChip, AttachmentKind } from './model';
import { commentBlocks, commentView, lineRange } from './commentAttachment';
import type { ReviewComment } from './commentAttachment';

/**
 * Context attached to a prompt (files and folders from an @-mention, an editor selection, an
 * image, a review comment on a diff), and how it becomes content blocks. Pure: the host reads files through `EmbedReader`.
 *
 * What an agent takes is in its `promptCapabilities` (ACP §5): `text` and `resource_link` always,
 * `resource` (embedded) with `embeddedContext`, `image` with `image`. Nothing is dropped
 * silently: a kind the agent cannot take at all (an image without `image`) is refused when it is
 * attached, and a prompt carrying one is not sent (see `refusal`). Kinds that can degrade do so
 * visibly in the blocks: a file not embedded is still sent as a link.
 */
export type Attachment =
  | { id: string; kind: 'file'; uri: string; name: string; /** workspace-relative path, for labels and links */ path: string }
  | { id: string; kind: 'folder'; uri: string; name: string; path: string }
  | {
      id: string;
      kind: 'selection';
      /** The document's URI (without a fragment). */
      uri: string;
      name: string;
      path: string;
      /** 1-based, inclusive. */
      startLine: number;
      endLine: number;
      /** The selected text, as it was when attached. */
      text: string;
    }
  | { id: string; kind: 'image'; name: string; mimeType: string; /** base64 */ data: string }
  | ReviewComment;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type NewAttachment = DistributiveOmit<Attachment, 'id'>;

/** Files larger than this are linked, not embedded (agents read them themselves). */
export const MAX_EMBED_BYTES = 1024 * 1024;

/**
 * The text of a file for embedding, or undefined when it cannot be embedded (binary, larger
 * than `maxBytes`, unreadable, or outside what the host lets agents read): it is then linked.
 */
export type EmbedReader = (uri: string, maxBytes: number) => Promise<string | undefined>;

/** What the agent takes beyond text and links; a missing capability is false (ACP §5). */
export interface PromptCaps {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

export function promptCaps(caps: PromptCapabilities | null | undefined): PromptCaps {
  return { image: caps?.image === true, audio: caps?.audio === true, embeddedContext: caps?.embeddedContext === true };
}

/** Why `agentName` cannot take this kind at all, or undefined when it can (in some form). */
export function refusal(kind: AttachmentKind, caps: PromptCaps, agentName: string): string | undefined {
  if (kind === 'image' && !caps.image) return `${agentName} does not accept images (its promptCapabilities have no image).`;
  return undefined;
}

/** The chip's words: a label and where it is. */
export function attachmentView(attachment: Attachment, problem: string | null = null): AttachmentChip {
  const { id, kind } = attachment;
  switch (attachment.kind) {
    case 'file':
      return { id, kind, label: attachment.name, detail: folderOf(attachment.path), problem };
    case 'folder':
      return { id, kind, label: `${attachment.name}/`, detail: folderOf(attachment.path), problem };
    case 'selection':
      return { id, kind, label: `${attachment.name}:${lineRange(attachment)}`, detail: attachment.path, problem };
    case 'image':
      return { id, kind, label: attachment.name, detail: `${attachment.mimeType}, ${formatBytes(base64Bytes(attachment.data))}`, problem };
    case 'comment':
      return { id, kind, ...commentView(attachment), problem };
  }
}

/** What the transcript's user entry lists: kind and label only (never the content). */
export function attachmentLabel(attachment: Attachment): { kind: AttachmentKind; label: string } {
  return { kind: attachment.kind, label: attachmentView(attachment).label };
}

/** Two attachments of the same thing (attaching it again does nothing). */
export function sameTarget(a: NewAttachment, b: NewAttachment): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'image' || b.kind === 'image') return a.kind === 'image' && b.kind === 'image' && a.data === b.data;
  if (a.kind === 'comment' || b.kind === 'comment') return a.kind === 'comment' && b.kind === 'comment' && a.threadId === b.threadId;
  if (a.uri !== b.uri) return false;
  return a.kind !== 'selection' || b.kind !== 'selection' || (a.startLine === b.startLine && a.endLine === b.endLine && a.text === b.text);
}

export interface PromptBuild {
  blocks: ContentBlock[];
  /** Attachments the agent cannot take: the caller must not send the blocks (never silently dropped). */
  refused: Attachment[];
}

/**
 * The `session/prompt` blocks for the text and its attachments, in order: the text, then one
 * block per attachment (plus a text block naming the range of a selection sent as a link).
 * - file: embedded `resource` {uri, text} with embeddedContext when the reader gives its text
 *   (text, ≤ 1 MB); else `resource_link` {uri, name}.
 * - folder: `resource_link`.
 * - selection: embedded `resource` {uri#L<start>-L<end>, text} with embeddedContext; else a
 *   `resource_link` to the file and the range in words.
 * - image: `image` {data, mimeType} with `image`; else refused.
 * - comment: what the user said on which lines, and the lines (commentAttachment.ts).
 */
export async function promptBlocks(text: string, attachments: readonly Attachment[], caps: PromptCaps, read: EmbedReader | undefined): Promise<PromptBuild> {
  const blocks: ContentBlock[] = [];
  const refused: Attachment[] = [];
  if (text !== '') blocks.push({ type: 'text', text });
  for (const attachment of attachments) {
    switch (attachment.kind) {
      case 'file': {
        const content = caps.embeddedContext && read ? await read(attachment.uri, MAX_EMBED_BYTES).catch(() => undefined) : undefined;
        if (content !== undefined) blocks.push({ type: 'resource', resource: { uri: attachment.uri, text: content } });
        else blocks.push(link(attachment));
        break;
      }
      case 'folder':
        blocks.push(link(attachment));
        break;
      case 'selection':
        if (caps.embeddedContext) {
          blocks.push({ type: 'resource', resource: { uri: `${attachment.uri}#L${attachment.startLine}-L${attachment.endLine}`, text: attachment.text } });
        } else {
          blocks.push(link(attachment), { type: 'text', text: `(Selected: lines ${attachment.startLine}–${attachment.endLine} of ${attachment.path})` });
        }
        break;
      case 'image':
        if (caps.image) blocks.push({ type: 'image', data: attachment.data, mimeType: attachment.mimeType });
        else refused.push(attachment);
        break;
      case 'comment':
        blocks.push(...commentBlocks(attachment, caps.embeddedContext));
        break;
    }
  }
  return { blocks, refused };
}

/** A link names the file by its workspace-relative path: more telling to an agent than a base name. */
function link(attachment: { uri: string; path: string }): ContentBlock {
  return { type: 'resource_link', uri: attachment.uri, name: attachment.path };
}

/** `src/a/b.ts` → `src/a`; a top-level name → null. */
function folderOf(relativePath: string): string | null {
  const cut = relativePath.lastIndexOf('/');
  return cut > 0 ? relativePath.slice(0, cut) : null;
}

/** The decoded size of base64 text. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
