import vscode = require('vscode');
import { ABSENT, UNKNOWN } from '../../../session/restorePlan';
import type { Earlier } from '../../../session/restorePlan';
import { readRegularFile } from '../../../workspace/regularFile';
import { SeedListing } from './seedListing';

/** Bounds of what the cache holds: a big repository must cost neither minutes nor gigabytes. */
export interface CacheLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_LIMITS: CacheLimits = { maxFiles: 5_000, maxFileBytes: 1_000_000, maxTotalBytes: 64_000_000 };
/** The seed lists this many times more files than it reads: names are cheap, and each proves a file existed. */
const LISTED_PER_READ = 10;

/** A NUL byte in the first 8 KB marks a binary file (git's own test). */
const BINARY_PROBE_BYTES = 8192;
/** Never cached nor reviewed, whatever the settings say. */
const ALWAYS_EXCLUDED = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;

/** A file's state read from disk: its text; null, it does not exist; undefined, it cannot be held (binary, too large, unreadable). */
export type DiskText = string | null | undefined;

export type FileEventKind = 'create' | 'change' | 'delete';

/** Called on a watcher event, synchronously, before the cache takes in the new state: what the file held before it. */
export type WillChange = (fsPath: string, kind: FileEventKind, before: Earlier) => void;

/**
 * The text of workspace files as last seen on disk, so that a file an agent overwrites behind
 * our back (most real agents write files themselves, not through fs/write_text_file) still has
 * its earlier text. Seeded once with findFiles (files.exclude and search.exclude honoured, plus
 * node_modules and .git), within bounds; kept fresh by a FileSystemWatcher, whose listeners hear
 * of each change before the cache is updated; clean open documents are taken as they are.
 */
export class ContentCache implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  /**
   * Files known not to exist (deleted, or removed by an undo): a file the agent then creates has
   * a known baseline (absent), even when its tool call's diff is announced after the write.
   */
  private readonly absent = new Set<string>();
  /** Seen but not held: binary or too large. Their earlier state is unknown. */
  private readonly skipped = new Set<string>();
  private bytes = 0;
  private seeding: Promise<void> | undefined;
  /** Per path, the latest read: an older read finishing late must not overwrite a newer one. */
  private readonly generation = new Map<string, number>();
  /** What the seed found: a file reported created that it would have listed was absent before. */
  private listing: SeedListing | undefined;
  private readonly willChange = new vscode.EventEmitter<{ fsPath: string; kind: FileEventKind; before: Earlier }>();
  private readonly disposables: vscode.Disposable[] = [this.willChange];
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly limits: CacheLimits = DEFAULT_LIMITS,
    /** While true, an open document does not overwrite what the cache holds (a turn is running). */
    private readonly frozen: () => boolean = () => false,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => this.onEvent(uri, 'create')),
      watcher.onDidChange((uri) => this.onEvent(uri, 'change')),
      watcher.onDidDelete((uri) => this.onEvent(uri, 'delete')),
      vscode.workspace.onDidOpenTextDocument((doc) => this.takeDocument(doc)),
    );
  }

  onWillChange(listener: WillChange): vscode.Disposable {
    return this.willChange.event(({ fsPath, kind, before }) => listener(fsPath, kind, before));
  }

  /** Fills the cache once; later calls share the first. */
  seed(): Promise<void> {
    this.seeding ??= this.doSeed();
    return this.seeding;
  }

  /** What the cache knows `fsPath` held. Synchronous: it must not race the agent. */
  before(fsPath: string): Earlier {
    if (this.absent.has(fsPath)) return ABSENT;
    const text = this.texts.get(fsPath);
    return text === undefined ? UNKNOWN : { kind: 'text', text };
  }

  /** Whether `fsPath` is reviewable at all: a file of a workspace folder, outside node_modules and .git. */
  static reviewable(uri: vscode.Uri): boolean {
    return uri.scheme === 'file' && !ALWAYS_EXCLUDED.test(uri.fsPath) && vscode.workspace.getWorkspaceFolder(uri) !== undefined;
  }

  /** The cache learns a state it caused itself (an undo restored it), without waiting for the watcher. */
  set(fsPath: string, text: string | null): void {
    this.generation.set(fsPath, (this.generation.get(fsPath) ?? 0) + 1);
    if (text === null) this.markAbsent(fsPath);
    else this.hold(fsPath, text);
  }

  /**
   * Reads a file as text: null when it does not exist, undefined when it cannot be held (binary,
   * too large, not a regular file, unreadable). File URIs only (reviewable ones are).
   */
  async read(uri: vscode.Uri): Promise<DiskText> {
    // Only regular files: a FIFO the agent made in the workspace would block the read for good.
    const read = await readRegularFile(uri.fsPath, this.limits.maxFileBytes).catch(() => undefined);
    if (!read?.ok) return read?.problem.kind === 'missing' ? null : undefined;
    const bytes = read.bytes;
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return undefined;
    return this.decoder.decode(bytes);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.texts.clear();
  }

  private async doSeed(): Promise<void> {
    const excludes = ['**/node_modules/**', '**/.git/**', ...excludeGlobs('files.exclude'), ...excludeGlobs('search.exclude')];
    const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const maxListed = this.limits.maxFiles * LISTED_PER_READ;
    const uris = await vscode.workspace.findFiles('**/*', `{${[...new Set(excludes)].join(',')}}`, maxListed);
    this.listing = new SeedListing(roots, new Set(uris.map((uri) => uri.fsPath)), uris.length < maxListed, excludes);
    for (const doc of vscode.workspace.textDocuments) this.takeDocument(doc);
    // A few reads at a time: thousands of parallel reads would only queue in the file service.
    const queue = uris.slice(0, this.limits.maxFiles);
    const worker = async () => {
      for (let uri = queue.shift(); uri; uri = queue.shift()) {
        if (this.bytes >= this.limits.maxTotalBytes) return;
        if (this.texts.has(uri.fsPath) || !ContentCache.reviewable(uri)) continue;
        await this.refresh(uri);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  }

  private onEvent(uri: vscode.Uri, kind: FileEventKind): void {
    if (!ContentCache.reviewable(uri)) return;
    const fsPath = uri.fsPath;
    // A create of a file never held did not exist before only if the seed would have seen it
    // (an atomic write over an existing file is reported as a create too).
    let before = this.before(fsPath);
    if (before.kind === 'unknown' && kind === 'create' && !this.skipped.has(fsPath) && this.listing?.absent(fsPath)) before = ABSENT;
    this.willChange.fire({ fsPath, kind, before });
    if (kind === 'delete') this.set(fsPath, null);
    else void this.refresh(uri);
  }

  /** Re-reads a file into the cache (the latest read wins). */
  private async refresh(uri: vscode.Uri): Promise<void> {
    const fsPath = uri.fsPath;
    const generation = (this.generation.get(fsPath) ?? 0) + 1;
    this.generation.set(fsPath, generation);
    const text = await this.read(uri);
    if (this.generation.get(fsPath) !== generation) return;
    if (text === null) this.markAbsent(fsPath);
    else if (text === undefined) {
      this.drop(fsPath);
      this.skipped.add(fsPath);
    } else this.hold(fsPath, text);
  }

  /** A clean document's text is its file's text on disk (a dirty one's is not). */
  private takeDocument(doc: vscode.TextDocument): void {
    if (doc.isDirty || !ContentCache.reviewable(doc.uri)) return;
    const fsPath = doc.uri.fsPath;
    if (this.frozen() && this.texts.has(fsPath)) return;
    const text = doc.getText();
    if (text.length > this.limits.maxFileBytes) return;
    this.hold(fsPath, text);
  }

  private hold(fsPath: string, text: string): void {
    const previous = this.texts.get(fsPath);
    // UTF-16 length as the measure: cheap, and within a factor of the bytes held.
    const delta = text.length - (previous?.length ?? 0);
    // Files created after the seed may add as many again as it held; past that, or past the
    // byte budget, a file is not held (and is unknown, like a binary one).
    if (this.texts.size >= this.limits.maxFiles * 2 && previous === undefined) return void this.skipped.add(fsPath);
    if (this.bytes + delta > this.limits.maxTotalBytes) {
      this.drop(fsPath);
      return void this.skipped.add(fsPath);
    }
    this.texts.set(fsPath, text);
    this.absent.delete(fsPath);
    this.skipped.delete(fsPath);
    this.bytes += delta;
  }

  private markAbsent(fsPath: string): void {
    this.drop(fsPath);
    this.absent.add(fsPath);
  }

  private drop(fsPath: string): void {
    this.absent.delete(fsPath);
    const previous = this.texts.get(fsPath);
    if (previous !== undefined) this.bytes -= previous.length;
    this.texts.delete(fsPath);
  }
}

/** The enabled glob keys of an exclude setting ({ "**\/dist": true }); `when` clauses are skipped. */
function excludeGlobs(section: 'files.exclude' | 'search.exclude'): string[] {
  const [key, name] = section.split('.');
  const value = vscode.workspace.getConfiguration(key).get<Record<string, unknown>>(name) ?? {};
  return Object.entries(value)
    .filter(([glob, on]) => on === true && !glob.includes('{') && !glob.includes(','))
    .map(([glob]) => glob);
}
