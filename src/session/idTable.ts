/** A slot is two int32s: the id's hash and its value plus one (0: the slot is free). */
const SLOT = 2;
const FIRST_SLOTS = 16;
/**
 * A probe run this long does not happen by chance (with at most half the slots used, a run of
 * 256 has odds of about e^-49 per cluster): the ids were made to collide, so the table hands
 * itself over to a Map, whose hash V8 seeds out of reach, for good.
 */
const LONG_RUN = 256;

/**
 * The ids the agent chooses (tool calls, compactions, plans by id), each to where it is kept (a
 * non-negative int: an entry's index), found by a short run of probes whatever their number.
 * The table holds no id: `idAt(value)` reads the id kept at a value, and only when a hash
 * matches.
 *
 * Why not a Map<string, number>: a new tool call's id is looked up once the transcript holds
 * tens of thousands of them, and V8's Map then reads a bucket, the entries of its chain and
 * their key strings, each somewhere else in a large heap, each a cache miss (bench/folds.mjs:
 * a new id in a bare Map costs 1.3–1.7× more at 100,000 entries than at 100). Here the slots are
 * one typed array of 8 bytes each, probed linearly: a lookup reads one slot and its neighbours,
 * and reads an id only when its 32-bit hash matches, which for a new id almost never happens.
 * A new tool call at 100,000 entries went from 0.58 to 0.31–0.33 µs, and is cheaper at every
 * size; what still grows (about 0.25 µs at 100) is whether that one slot is in the cache.
 *
 * The hash takes every character (an id's cost is its length, as its parse's is) under a seed
 * drawn per table, so an agent cannot aim ids at one slot; should a run grow long anyway, the
 * table becomes a Map (`LONG_RUN`).
 */
export class IdTable {
  private slots = new Int32Array(FIRST_SLOTS * SLOT);
  private mask = FIRST_SLOTS - 1;
  private used = 0;
  private fallback: Map<string, number> | undefined;

  constructor(
    private readonly idAt: (value: number) => string | undefined,
    private readonly hash: (id: string) => number = seededHash((Math.random() * 2 ** 32) | 0),
  ) {}

  get(id: string): number | undefined {
    if (this.fallback) return this.fallback.get(id);
    const at = this.find(id, this.hash(id));
    return at < 0 ? undefined : this.slots[at + 1]! - 1;
  }

  /** `id` is kept at `value` now (a non-negative int32 below 2^31 - 1). */
  set(id: string, value: number): void {
    if (this.fallback) {
      this.fallback.set(id, value);
      return;
    }
    const hash = this.hash(id);
    const at = this.find(id, hash);
    if (at >= 0) {
      this.slots[at + 1] = value + 1;
      return;
    }
    if (2 * (this.used + 1) > this.mask + 1) this.grow();
    this.used++;
    if (!this.place(hash, value + 1)) this.handOver();
  }

  clear(): void {
    this.slots = new Int32Array(FIRST_SLOTS * SLOT);
    this.mask = FIRST_SLOTS - 1;
    this.used = 0;
    this.fallback = undefined;
  }

  /** Where `id`'s slot is in `slots`, or -1. */
  private find(id: string, hash: number): number {
    const { slots, mask } = this;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const at = i * SLOT;
      const stored = slots[at + 1]!;
      if (stored === 0) return -1;
      if (slots[at] === hash && this.idAt(stored - 1) === id) return at;
    }
  }

  /** Puts a slot in the first free one of its run (there is one: at most half are used); false if that run was too long. */
  private place(hash: number, stored: number): boolean {
    const { slots, mask } = this;
    let i = hash & mask;
    let run = 0;
    for (; slots[i * SLOT + 1] !== 0; i = (i + 1) & mask) run++;
    slots[i * SLOT] = hash;
    slots[i * SLOT + 1] = stored;
    return run < LONG_RUN;
  }

  private grow(): void {
    const old = this.slots;
    this.mask = 2 * (this.mask + 1) - 1;
    this.slots = new Int32Array((this.mask + 1) * SLOT);
    for (let at = 0; at < old.length; at += SLOT) if (old[at + 1] !== 0) this.place(old[at]!, old[at + 1]!);
  }

  private handOver(): void {
    const map = new Map<string, number>();
    for (let at = 0; at < this.slots.length; at += SLOT) {
      const stored = this.slots[at + 1]!;
      const id = stored === 0 ? undefined : this.idAt(stored - 1);
      if (id !== undefined) map.set(id, stored - 1);
    }
    this.fallback = map;
    this.slots = new Int32Array(0);
  }
}

/**
 * A 32-bit hash of every UTF-16 unit of a string, under `seed`: each unit multiplied in and
 * folded down (MurmurHash3's steps), then MurmurHash3's finaliser so that the low bits, which
 * pick the slot, depend on all of them.
 */
export function seededHash(seed: number): (id: string) => number {
  return (id) => {
    let h = seed ^ id.length;
    for (let i = 0; i < id.length; i++) {
      h = Math.imul(h ^ id.charCodeAt(i), 0xcc9e2d51);
      h ^= h >>> 15;
    }
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return h ^ (h >>> 16);
  };
}
