import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { replaceFile } from '../../base/node/replaceFile';
import { ABSENT, UNKNOWN } from '../../session/restorePlan';
import type { Earlier } from '../../session/restorePlan';
import { CheckpointIndexSchema, indexProblem } from './checkpointIndex';
import type { CheckpointIndex, FileState } from './checkpointIndex';

/** What the store may hold; read on every use, so a changed setting applies at once. */
export interface CheckpointLimits {
  /** Bytes of file contents all checkpoints of the workspace keep together (shared contents count once). */
  maxBytes: number;
  /** A file larger than this is not kept (it is named as not restorable). */
  maxFileBytes: number;
  /** Checkpoints kept at most, whatever their size (the index stays small). */
  maxCheckpoints: number;
}

export const DEFAULT_CHECKPOINT_LIMITS: CheckpointLimits = { maxBytes: 50 * 1024 * 1024, maxFileBytes: 1_000_000, maxCheckpoints: 1_000 };

/** A file a checkpoint's restore considers, with what it held when first changed since then. */
export interface CheckpointFile {
  path: string;
  earlier: Earlier;
}

interface Checkpoint {
  id: number;
  /** Path → its state when first changed after this checkpoint began (the first change only). */
  files: Map<string, FileState>;
}

const INDEX = 'index.json';
const BLOBS = 'blobs';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The checkpoints of one workspace (VS Code-free: unit-tested on a temp folder). A checkpoint
 * begins with each prompt the user sends; from then on, the first change of each file records
 * what the file held before it (`record`), into the latest checkpoint. So restoring checkpoint k
 * puts every file changed since k began back to the earliest state recorded in k or later: the
 * cost is the files changed, never the workspace. Contents are blobs named by their hash (one
 * copy for many checkpoints), the index is JSON validated when read back, both in `dir`. Past
 * the limits the oldest checkpoints go first.
 */
export class CheckpointStore {
  private checkpoints: Checkpoint[] = [];
  private next = 0;
  /** Hash → size in bytes and how many checkpoint files name it. */
  private readonly blobs = new Map<string, { size: number; refs: number }>();
  private bytes = 0;
  /** File writes and removals run one after another, in the order they were asked for. */
  private queue: Promise<void> = Promise.resolve();
  private indexQueued = false;

  private constructor(
    private readonly dir: string,
    private readonly limits: () => CheckpointLimits,
    private readonly log: (message: string) => void,
    /** Told when the oldest available checkpoint changes (an eviction). */
    private readonly onEvicted: () => void,
  ) {}

  /** The store kept in `dir`: its index read back (a missing or invalid one starts empty), blobs it does not name removed. */
  static async load(dir: string, limits: () => CheckpointLimits, log: (message: string) => void, onEvicted: () => void = () => {}): Promise<CheckpointStore> {
    const store = new CheckpointStore(dir, limits, log, onEvicted);
    await fs.mkdir(path.join(dir, BLOBS), { recursive: true });
    const index = await readIndex(path.join(dir, INDEX), log);
    if (index) store.adopt(index);
    const named = new Set(store.blobs.keys());
    for (const name of await fs.readdir(path.join(dir, BLOBS))) {
      if (!named.has(name)) await fs.rm(path.join(dir, BLOBS, name), { force: true });
    }
    return store;
  }

  /** The oldest checkpoint still available, or null when there is none. */
  get oldest(): number | null {
    return this.checkpoints[0]?.id ?? null;
  }

  /** Bytes of contents held now. */
  get size(): number {
    return this.bytes;
  }

  has(id: number): boolean {
    return this.at(id) !== undefined;
  }

  /** A checkpoint begins (the user sends a prompt): its id, which the prompt's entry keeps. */
  begin(): number {
    while (this.checkpoints.length >= Math.max(1, this.limits().maxCheckpoints)) this.evictOldest();
    const id = this.next++;
    this.checkpoints.push({ id, files: new Map() });
    this.saveIndex();
    return id;
  }

  /** Whether the latest checkpoint still lacks `fsPath`'s earlier state (its first change since is still to come). */
  wants(fsPath: string): boolean {
    const latest = this.checkpoints.at(-1);
    return latest !== undefined && !latest.files.has(fsPath);
  }

  /**
   * `fsPath` changes: `before` is what it held. Recorded into the latest checkpoint, unless it
   * holds the path already (only the first change counts).
   */
  record(fsPath: string, before: Earlier): void {
    const latest = this.checkpoints.at(-1);
    if (!latest || latest.files.has(fsPath)) return;
    latest.files.set(fsPath, before.kind === 'text' ? this.keep(before.text, latest) : before.kind === 'absent' ? null : false);
    this.saveIndex();
  }

  /**
   * The files restoring checkpoint `id` considers, sorted, each with its earliest state recorded
   * since: unknown when it was never known or its saved copy is gone (never taken for absent).
   * Throws, in words, when the checkpoint is no longer available.
   */
  async files(id: number): Promise<CheckpointFile[]> {
    const first = this.at(id);
    if (first === undefined) throw new Error('This checkpoint is no longer available: the oldest checkpoints are dropped past acpHost.checkpoints.maxMegabytes.');
    await this.flush();
    const earliest = new Map<string, FileState>();
    for (let i = first; i < this.checkpoints.length; i++) {
      for (const [fsPath, state] of this.checkpoints[i].files) if (!earliest.has(fsPath)) earliest.set(fsPath, state);
    }
    const files: CheckpointFile[] = [];
    for (const [fsPath, state] of [...earliest].sort(([a], [b]) => a.localeCompare(b))) {
      const text = typeof state === 'string' ? await this.read(state) : undefined;
      files.push({ path: fsPath, earlier: state === null ? ABSENT : text === undefined ? UNKNOWN : { kind: 'text', text } });
    }
    return files;
  }

  /** Resolves once every write asked for so far is on disk. */
  flush(): Promise<void> {
    return this.queue;
  }

  /** The index of checkpoint `id` in the list: ids are consecutive, so no search. */
  private at(id: number): number | undefined {
    const first = this.checkpoints[0]?.id;
    if (first === undefined || !Number.isInteger(id) || id < first || id - first >= this.checkpoints.length) return undefined;
    return id - first;
  }

  /** Keeps `text` as a blob (shared when it is held already); false when it does not fit. */
  private keep(text: string, latest: Checkpoint): FileState {
    const bytes = Buffer.from(text, 'utf8');
    const { maxBytes, maxFileBytes } = this.limits();
    // Larger than the file limit, or than the whole budget (evicting would not help): not kept.
    if (bytes.length > Math.min(maxFileBytes, maxBytes)) return false;
    const hash = sha256(bytes);
    const held = this.blobs.get(hash);
    if (held) {
      held.refs++;
      return hash;
    }
    // Older checkpoints make room; the latest one (being recorded) never goes.
    while (this.bytes + bytes.length > maxBytes && this.checkpoints[0] !== latest) this.evictOldest();
    if (this.bytes + bytes.length > maxBytes) return false;
    this.blobs.set(hash, { size: bytes.length, refs: 1 });
    this.bytes += bytes.length;
    this.enqueue(() => fs.writeFile(path.join(this.dir, BLOBS, hash), bytes, { flag: 'wx' }).catch(ignoreExists));
    return hash;
  }

  private evictOldest(): void {
    const oldest = this.checkpoints.shift();
    if (!oldest) return;
    for (const state of oldest.files.values()) {
      if (typeof state !== 'string') continue;
      const blob = this.blobs.get(state)!;
      if (--blob.refs > 0) continue;
      this.blobs.delete(state);
      this.bytes -= blob.size;
      this.enqueue(() => fs.rm(path.join(this.dir, BLOBS, state), { force: true }));
    }
    this.saveIndex();
    this.onEvicted();
  }

  /** A blob's text, or undefined when it is gone or no longer matches its hash. */
  private async read(hash: string): Promise<string | undefined> {
    const bytes = await fs.readFile(path.join(this.dir, BLOBS, hash)).catch(() => undefined);
    if (!bytes || sha256(bytes) !== hash) {
      this.log(`Checkpoints: the saved copy ${hash} is missing or damaged.`);
      return undefined;
    }
    return new TextDecoder('utf-8').decode(bytes);
  }

  /** The index is written once for any number of changes asked before its turn in the queue. */
  private saveIndex(): void {
    if (this.indexQueued) return;
    this.indexQueued = true;
    this.enqueue(async () => {
      this.indexQueued = false;
      const file = path.join(this.dir, INDEX);
      await replaceFile(file, JSON.stringify(this.snapshot()));
    });
  }

  private snapshot(): CheckpointIndex {
    return {
      version: 1,
      next: this.next,
      checkpoints: this.checkpoints.map(({ id, files }) => ({ id, files: [...files] })),
      blobs: [...this.blobs].map(([hash, { size }]) => [hash, size]),
    };
  }

  private adopt(index: CheckpointIndex): void {
    const sizes = new Map(index.blobs);
    this.next = index.next;
    this.checkpoints = index.checkpoints.map(({ id, files }) => ({ id, files: new Map(files) }));
    for (const { files } of this.checkpoints) {
      for (const state of files.values()) {
        if (typeof state !== 'string') continue;
        const held = this.blobs.get(state);
        if (held) held.refs++;
        else {
          this.blobs.set(state, { size: sizes.get(state)!, refs: 1 });
          this.bytes += sizes.get(state)!;
        }
      }
    }
  }

  private enqueue(task: () => Promise<unknown>): void {
    this.queue = this.queue.then(task).then(
      () => undefined,
      (error: Error) => this.log(`Checkpoints: writing to ${this.dir} failed: ${error.message}`),
    );
  }
}

/** The index in `file`, or undefined (none yet, or not a valid one: said in the log, and started afresh). */
async function readIndex(file: string, log: (message: string) => void): Promise<CheckpointIndex | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = CheckpointIndexSchema.safeParse(json);
  const problem = parsed.success ? indexProblem(parsed.data) : (parsed.error.issues[0]?.message ?? 'not JSON');
  if (problem === null && parsed.success) return parsed.data;
  log(`Checkpoints: the saved index is not valid (${problem}); checkpoints start afresh.`);
  return undefined;
}

/** A blob named by its hash that exists already holds the same content. */
function ignoreExists(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}
