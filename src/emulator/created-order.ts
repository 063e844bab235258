// Records by id, and in creation order, for lists paged by a `createdAt` cursor. Every record's
// createdAt is distinct (the creator makes it so), so a binary search finds a cursor's place and a
// page costs O(log N + page), not a scan of every record.

interface Created {
  createdAt: number;
}

export class CreatedOrder<T extends Created> {
  private readonly byId = new Map<string, T>();
  /** Oldest first; createdAt strictly increasing. */
  private readonly ordered: T[] = [];

  constructor(private readonly idOf: (record: T) => string) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  /** The newest createdAt held, or undefined when empty. */
  newestCreatedAt(): number | undefined {
    return this.ordered[this.ordered.length - 1]?.createdAt;
  }

  /** Adds a record, or replaces the one with its id (whose createdAt must not change). */
  put(record: T): void {
    const previous = this.byId.get(this.idOf(record));
    this.byId.set(this.idOf(record), record);
    if (previous) {
      this.ordered[this.indexOf(previous)] = record;
      return;
    }
    const at = this.firstAtOrAfter(record.createdAt);
    // Records arrive in creation order, so this is an append except when loading an unsorted file.
    if (at === this.ordered.length) this.ordered.push(record);
    else this.ordered.splice(at, 0, record);
  }

  delete(id: string): T | undefined {
    const record = this.byId.get(id);
    if (!record) return undefined;
    this.byId.delete(id);
    this.ordered.splice(this.indexOf(record), 1);
    return record;
  }

  clear(): void {
    this.byId.clear();
    this.ordered.length = 0;
  }

  /** Oldest first. */
  values(): readonly T[] {
    return this.ordered;
  }

  /** The index of the first record created at or after `createdAt` (the length when none). */
  firstAtOrAfter(createdAt: number): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.ordered[mid] as T).createdAt < createdAt) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  at(index: number): T | undefined {
    return this.ordered[index];
  }

  /** Where `record` sits; a file written by hand may hold equal createdAt values, so those are stepped over. */
  private indexOf(record: T): number {
    let index = this.firstAtOrAfter(record.createdAt);
    while (index < this.ordered.length && this.ordered[index] !== record) index++;
    return index;
  }
}
