/**
 * Keys and their providers as last read, so that a request need not read them again: every
 * request of every route starts with that lookup, and integrations poll (issue 19).
 *
 * A change must take effect at once, in this process and in every other one (a revoked key gets
 * 401 on its next request). So nothing is kept unless `changes` can say when keys or providers
 * change; every change clears everything; and a row read before a change is never kept after it:
 * `store` takes the generation seen when its read began and drops the row if a change came since.
 * The time limit is only a backstop for a signal that could be lost.
 */

/** Where changes to keys and providers are learnt: this process's commits and other processes'. */
export interface CallerChanges {
  /** False while changes of other processes could go unnoticed (a listener reconnecting): keep nothing. */
  readonly live: boolean;
  /** Called before each lookup, for signals that are read rather than pushed (a marker file). */
  poll(): void;
  /** `listener` is called on every change; returns the function that stops listening. */
  subscribe(listener: () => void): () => void;
}

export interface CallerCacheOptions {
  changes: CallerChanges;
  /** How long a row is kept at most, even without a change. */
  ttlMs?: number;
  /** Rows kept at most: the oldest go first. Unknown prefixes are never kept. */
  maxEntries?: number;
  now?: () => number;
}

const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MAX_ENTRIES = 10_000;

export class CallerCache<Row> {
  private readonly entries = new Map<string, { row: Row; expiresAt: number }>();
  private changesSeen = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: CallerCacheOptions) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = options.now ?? Date.now;
    this.unsubscribe = options.changes.subscribe(() => this.clear());
  }

  /** The generation to hand back to `store`: taken before the read. */
  generation(): number {
    this.options.changes.poll();
    return this.changesSeen;
  }

  get(prefix: string): Row | undefined {
    if (!this.options.changes.live) return undefined;
    const entry = this.entries.get(prefix);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(prefix);
      return undefined;
    }
    return entry.row;
  }

  store(prefix: string, row: Row, generationBeforeRead: number): void {
    if (!this.options.changes.live || generationBeforeRead !== this.changesSeen) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(prefix, { row, expiresAt: this.now() + this.ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.changesSeen += 1;
    this.entries.clear();
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
  }
}
