import * as path from 'node:path';
import vscode = require('vscode');
import type { NewAttachment } from '../../session/attachments';
import { MAX_EMBED_BYTES } from '../../session/attachments';
import { excludedSegments, mentionCandidates } from '../../workspace/mentionCandidates';
import type { MentionCandidate } from '../../workspace/mentionCandidates';
import { lastHeldLine, toOneBasedLine } from '../../workspace/lines';
import { readRegularFile } from '../../workspace/regularFile';
import { resolveWorkspacePath, workspaceRoots } from '../editor/workspacePaths';

/** Where prompt context comes from in VS Code: the @-mention QuickPick, the editor's selection, file reads. */

const MAX_FILES = 20000;

interface MentionItem extends vscode.QuickPickItem {
  candidate: MentionCandidate;
}

/**
 * The @-mention picker: the workspace's files (files.exclude applied by findFiles, plus the
 * search.exclude entries that name a folder anywhere, like node_modules) and the folders that hold them; QuickPick's own fuzzy
 * filter on the name and the folder; several may be checked. Accepting with nothing checked
 * takes the highlighted item.
 */
export class MentionPicker {
  /** The picker while it is open (the integration tests drive it). */
  active: vscode.QuickPick<MentionItem> | undefined;

  async pick(): Promise<NewAttachment[]> {
    this.active?.hide();
    const picker = vscode.window.createQuickPick<MentionItem>();
    this.active = picker;
    picker.title = 'Attach to the prompt';
    picker.placeholder = 'Search files and folders (Space checks several, Enter attaches)';
    picker.matchOnDescription = true;
    picker.canSelectMany = true;
    picker.busy = true;
    const cancel = new vscode.CancellationTokenSource();
    const chosen = new Promise<NewAttachment[]>((resolve) => {
      picker.onDidAccept(() => {
        const items = picker.selectedItems.length > 0 ? picker.selectedItems : picker.activeItems;
        resolve(items.map((i) => fromCandidate(i.candidate)));
        picker.hide();
      });
      picker.onDidHide(() => {
        resolve([]);
        cancel.cancel();
        picker.dispose();
        if (this.active === picker) this.active = undefined;
      });
    });
    picker.show();
    void workspaceCandidates(cancel.token).then(
      (candidates) => {
        picker.items = candidates.map(toItem);
        picker.busy = false;
      },
      (error: Error) => {
        picker.busy = false;
        picker.placeholder = `Could not list the workspace's files: ${error.message}`;
      },
    );
    return chosen;
  }
}

async function workspaceCandidates(token: vscode.CancellationToken): Promise<MentionCandidate[]> {
  // exclude undefined: findFiles applies files.exclude; search.exclude is applied by name below.
  const uris = await vscode.workspace.findFiles('**/*', undefined, MAX_FILES, token);
  const files = uris.map((uri) => ({ uri: uri.toString(), path: vscode.workspace.asRelativePath(uri) }));
  const searchExclude = vscode.workspace.getConfiguration('search').get<Record<string, unknown>>('exclude');
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  return mentionCandidates(files, excludedSegments(searchExclude), open);
}

function toItem(candidate: MentionCandidate): MentionItem {
  return {
    label: candidate.name,
    description: candidate.parent,
    iconPath: candidate.kind === 'folder' ? vscode.ThemeIcon.Folder : vscode.ThemeIcon.File,
    candidate,
  };
}

function fromCandidate({ kind, uri, name, path: relative }: MentionCandidate): NewAttachment {
  return { kind, uri, name, path: relative };
}

/** A file or folder as an attachment (for other entry points than the picker, e.g. tests). */
export async function uriAttachment(uri: vscode.Uri): Promise<NewAttachment> {
  const stat = await vscode.workspace.fs.stat(uri);
  const kind = stat.type & vscode.FileType.Directory ? 'folder' : 'file';
  return { kind, uri: uri.toString(), name: path.posix.basename(uri.path), path: vscode.workspace.asRelativePath(uri) };
}

/**
 * The editor's selections as attachments, with their text as it is now: each non-empty
 * selection, or the line of the cursor when all are empty. Returns why not, as a string, when
 * there is no editor or a selection is too large to embed.
 */
export function selectionAttachments(editor: vscode.TextEditor | undefined): NewAttachment[] | string {
  if (!editor) return 'There is no active editor to take a selection from.';
  const { document } = editor;
  const ranges = editor.selections.filter((s) => !s.isEmpty).map((s) => new vscode.Range(s.start, s.end));
  if (ranges.length === 0) ranges.push(document.lineAt(editor.selection.active.line).range);
  const name = path.posix.basename(document.uri.path) || document.uri.toString();
  const attachments: NewAttachment[] = [];
  for (const range of ranges) {
    const text = document.getText(range);
    if (Buffer.byteLength(text) > MAX_EMBED_BYTES) return `The selection is larger than 1 MB: attach the file instead (@).`;
    const [startLine, endLine] = [toOneBasedLine(range.start.line), toOneBasedLine(lastHeldLine(range.start, range.end))];
    attachments.push({ kind: 'selection', uri: document.uri.toString(), name, path: vscode.workspace.asRelativePath(document.uri), startLine, endLine, text });
  }
  return attachments;
}

/**
 * The text of an attached file for an embedded resource, by the road `fs/read_text_file` takes:
 * the path confined to the workspace, the open buffer first (unsaved edits included), else the
 * disk. Undefined, so the file is linked instead, when it is outside the workspace, not a regular
 * file, larger than `maxBytes`, or not UTF-8 text.
 */
export async function readForEmbed(uriText: string, maxBytes: number): Promise<string | undefined> {
  const uri = vscode.Uri.parse(uriText, true);
  if (uri.scheme !== 'file') {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    return doc ? withinSize(doc.getText(), maxBytes) : undefined;
  }
  // The user picked it: any folder of the workspace will do, whatever the session's roots.
  const real = await resolveWorkspacePath(uri.fsPath, workspaceRoots()).catch(() => undefined);
  if (!real) return undefined;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === real.toString() || d.uri.toString() === uri.toString());
  if (open) return withinSize(open.getText(), maxBytes);
  // Like fs/read_text_file: a FIFO or a device would block or never end.
  const read = await readRegularFile(real.fsPath, maxBytes);
  if (!read.ok) return undefined;
  const bytes = read.bytes;
  if (bytes.subarray(0, 8192).includes(0)) return undefined; // binary
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function withinSize(text: string, maxBytes: number): string | undefined {
  return Buffer.byteLength(text) <= maxBytes ? text : undefined;
}
