/**
 * The last `capacity` items pushed, oldest first: a fixed array written round, so a full ring
 * drops its oldest item in O(1) (an array's `shift` would move all 10,000 on every push).
 */
export class Ring<T> {
  private readonly items: T[] = [];
  /** Where the oldest item is, once the ring is full. */
  private start = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`A ring holds at least one item (got ${capacity})`);
  }

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** A copy, oldest first. */
  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }
}
