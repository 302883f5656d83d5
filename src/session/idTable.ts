/** A slot is two int32s: the id's hash and its value plus one (0: the slot is free). */
const SLOT = 2;
/** The slots a table starts with (the young one grows from it too). */
const FIRST_SLOTS = 16;
/**
 * A probe run this long does not happen by chance (with at most half the slots used, a run of
 * 256 has odds of about e^-49 per cluster): the ids were made to collide, so the table hands
 * itself over to a Map, whose hash V8 seeds out of reach, for good.
 */
const LONG_RUN = 256;
/** How many ids the young table takes before they move to the old one: its 16 KB (then) stay in the cache. */
const YOUNG_IDS = 1024;

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
 * typed arrays of 8 bytes each, probed linearly, and an id is read only when its 32-bit hash
 * matches, which for a new id almost never happens.
 *
 * Why two tables: even so, a new id's one slot in a table of a megabyte is rarely in the cache
 * (bench/folds.mjs, `tool_call (new)`: 0.24 µs at 100 entries, 0.29–0.34 µs at 100,000). So new
 * ids go to a small young table, and move to the old one a thousand at a time (`promote`), when
 * the CPU can wait for their slots' misses all at once rather than one by one. An id is looked
 * up in the old table only when its Bloom filter (8 to 16 bits an id, one word of it read per id: one
 * cache line in a sixteenth of the table's size) says it may be there: for a new id, about one
 * time in twenty at most.
 *
 * The hash takes every character (an id's cost is its length, as its parse's is) under a seed
 * drawn per table, so an agent cannot aim ids at one slot; should a run grow long anyway, the
 * table becomes a Map (`LONG_RUN`).
 */
export class IdTable {
  /** Grown as the old one is, up to twice `youngIds` slots: a table of few ids stays small. */
  private young = new Slots(FIRST_SLOTS);
  private old = new Slots(FIRST_SLOTS);
  /** Per old slot, 4 bits of the Bloom filter over the old ids' hashes: 2 bits set per id, in the word its hash picks. */
  private bloom = bloomOf(this.old);
  private fallback: Map<string, number> | undefined;
  /** The id the last `get` did not find, and its hash: its `set`, which follows as a rule, neither hashes nor looks it up again. */
  private missed: string | undefined;
  private missedHash = 0;

  constructor(
    private readonly idAt: (value: number) => string | undefined,
    private readonly hash: (id: string) => number = seededHash((Math.random() * 2 ** 32) | 0),
    private readonly youngIds = YOUNG_IDS,
  ) {}

  get(id: string): number | undefined {
    if (this.fallback) return this.fallback.get(id);
    const hash = this.hash(id);
    let at = this.young.find(id, hash, this.idAt);
    if (at >= 0) return this.young.value(at);
    at = mayHold(this.bloom, hash) ? this.old.find(id, hash, this.idAt) : -1;
    if (at >= 0) return this.old.value(at);
    this.missed = id;
    this.missedHash = hash;
    return undefined;
  }

  /** `id` is kept at `value` now (a non-negative int32 below 2^31 - 1). */
  set(id: string, value: number): void {
    if (this.fallback) {
      this.fallback.set(id, value);
      return;
    }
    const isNew = id === this.missed;
    this.missed = undefined;
    const hash = isNew ? this.missedHash : this.hash(id);
    if (!isNew) {
      const young = this.young.find(id, hash, this.idAt);
      if (young >= 0) return this.young.keep(young, value);
      const old = mayHold(this.bloom, hash) ? this.old.find(id, hash, this.idAt) : -1;
      if (old >= 0) return this.old.keep(old, value);
    }
    if (this.young.used === this.youngIds && !this.promote()) return this.handOver(id, value);
    this.young.reserve(1);
    if (!this.young.place(hash, value + 1)) this.handOver(id, value);
  }

  clear(): void {
    this.missed = undefined;
    this.young = new Slots(FIRST_SLOTS);
    this.old = new Slots(FIRST_SLOTS);
    this.bloom = bloomOf(this.old);
    this.fallback = undefined;
  }

  /** Moves the young ids to the old table; false if a probe run there was too long. */
  private promote(): boolean {
    const { young, old } = this;
    if (old.reserve(young.used)) this.bloom = bloomOf(old);
    old.touch(young);
    for (let at = 0; at < young.slots.length; at += SLOT) {
      const stored = young.slots[at + 1]!;
      if (stored === 0) continue;
      const hash = young.slots[at]!;
      if (!old.place(hash, stored)) return false;
      addTo(this.bloom, hash);
    }
    young.empty();
    return true;
  }

  /** Every id of both tables, and `id` at `value`, into a Map, which takes over for good. */
  private handOver(id: string, value: number): void {
    const map = new Map<string, number>();
    for (const { slots } of [this.old, this.young]) {
      for (let at = 0; at < slots.length; at += SLOT) {
        const stored = slots[at + 1]!;
        const kept = stored === 0 ? undefined : this.idAt(stored - 1);
        if (kept !== undefined) map.set(kept, stored - 1);
      }
    }
    this.fallback = map.set(id, value);
    this.young = new Slots(0);
    this.old = new Slots(0);
  }
}

/** Open addressing over one Int32Array of slots (hash, value + 1), at most half of them used. */
class Slots {
  slots: Int32Array;
  used = 0;

  /** At least `count` slots: a power of two, as the probes' mask needs. */
  constructor(count: number) {
    this.slots = new Int32Array(count > 0 ? 2 ** Math.ceil(Math.log2(count)) * SLOT : 0);
  }

  get mask(): number {
    return this.slots.length / SLOT - 1;
  }

  /** Where `id`'s slot is, or -1. */
  find(id: string, hash: number, idAt: (value: number) => string | undefined): number {
    const { slots } = this;
    const mask = this.mask;
    if (mask < 0) return -1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const at = i * SLOT;
      const stored = slots[at + 1]!;
      if (stored === 0) return -1;
      if (slots[at] === hash && idAt(stored - 1) === id) return at;
    }
  }

  value(at: number): number {
    return this.slots[at + 1]! - 1;
  }

  keep(at: number, value: number): void {
    this.slots[at + 1] = value + 1;
  }

  /** Puts a slot in the first free one of its run (there is one: at most half are used); false if that run was too long. */
  place(hash: number, stored: number): boolean {
    const { slots } = this;
    const mask = this.mask;
    let i = hash & mask;
    let run = 0;
    for (; slots[i * SLOT + 1] !== 0; i = (i + 1) & mask) run++;
    slots[i * SLOT] = hash;
    slots[i * SLOT + 1] = stored;
    this.used++;
    return run < LONG_RUN;
  }

  /** Room for `more` slots at most half the table; true if the table grew for them. */
  reserve(more: number): boolean {
    let count = this.mask + 1;
    while (2 * (this.used + more) > count) count *= 2;
    if (count === this.mask + 1) return false;
    const old = this.slots;
    this.slots = new Int32Array(count * SLOT);
    this.used = 0;
    for (let at = 0; at < old.length; at += SLOT) if (old[at + 1] !== 0) this.place(old[at]!, old[at + 1]!);
    return true;
  }

  /**
   * Reads the first slot of each of `other`'s hashes here, each read independent of the others,
   * so that the CPU waits for their cache misses together; `place` then finds them in the cache.
   * The sum is returned only so that no compiler takes the reads for dead code.
   */
  touch(other: Slots): number {
    const { slots } = this;
    const mask = this.mask;
    let sum = 0;
    for (let at = 0; at < other.slots.length; at += SLOT) sum += slots[(other.slots[at]! & mask) * SLOT + 1]!;
    return sum;
  }

  empty(): void {
    this.slots.fill(0);
    this.used = 0;
  }
}

/** The Bloom filter of `slots`' hashes: a word per 8 slots, a power of two. */
function bloomOf(slots: Slots): Int32Array {
  const bloom = new Int32Array(Math.max(2, (slots.mask + 1) >>> 3));
  for (let at = 0; at < slots.slots.length; at += SLOT) if (slots.slots[at + 1] !== 0) addTo(bloom, slots.slots[at]!);
  return bloom;
}

/** The word of a Bloom filter that an id's hash picks: its bits from the eleventh on. */
function wordOf(bloom: Int32Array, hash: number): number {
  return (hash >>> 10) & (bloom.length - 1);
}

/** The two bits of that word that the hash sets: its lowest ten bits pick them. */
function bitsOf(hash: number): number {
  return (1 << (hash & 31)) | (1 << ((hash >>> 5) & 31));
}

function addTo(bloom: Int32Array, hash: number): void {
  bloom[wordOf(bloom, hash)]! |= bitsOf(hash);
}

/** Whether the filter may hold an id of this hash (false: it does not). */
function mayHold(bloom: Int32Array, hash: number): boolean {
  const bits = bitsOf(hash);
  return (bloom[wordOf(bloom, hash)]! & bits) === bits;
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
