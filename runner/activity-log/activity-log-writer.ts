// Writes activity logs off the response path: calls hand entries over and go on, batches go to the store in the
// background. A call's finish replaces its start while both still wait, so most calls cost one row written. When
// the store fails, entries wait and the batch is retried; past a bound, new entries are dropped (and counted)
// rather than let memory grow without end, and the operator is told.

import type { ActivityLog } from "../../store/model";

export interface ActivitySink {
  recordActivity(logs: readonly ActivityLog[]): Promise<void>;
}

export interface ActivityLogWriterOptions {
  readonly batchSize?: number;
  /** How long a lone entry may wait for others to share its batch. */
  readonly flushIntervalMs?: number;
  /** Calls held at most while the store is failing. */
  readonly maxBuffered?: number;
  readonly maxRetryDelayMs?: number;
  /** Where operator messages go. */
  readonly warn?: (message: string) => void;
}

export class ActivityLogWriter {
  /** By activity id, oldest first; a later entry for the same call replaces the earlier in its place. */
  private buffer = new Map<string, ActivityLog>();
  private inFlight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryDelayMs = 0;
  private failing = false;
  private droppedWhileFull = 0;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly maxBuffered: number;
  private readonly maxRetryDelayMs: number;
  private readonly warn: (message: string) => void;
  /** Entries written to the store, and dropped because the bound was reached, since start. */
  readonly counts = { written: 0, dropped: 0 };

  constructor(
    private readonly sink: ActivitySink,
    options: ActivityLogWriterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 5_000;
    this.warn = options.warn ?? ((message) => console.error(message));
  }

  get buffered(): number {
    return this.buffer.size;
  }

  /** Takes an entry; never waits and never throws. */
  write(log: ActivityLog): void {
    if (!this.buffer.has(log.id) && this.buffer.size >= this.maxBuffered) {
      this.counts.dropped++;
      if (this.droppedWhileFull++ === 0) {
        this.warn(`flowgate: activity logs: ${this.maxBuffered} entries are waiting for the store, the most this node holds; new entries are dropped until the store takes them again`);
      }
      return;
    }
    this.buffer.set(log.id, log);
    this.schedule();
  }

  /** Writes everything held, retrying until done or until `deadline`; for shutdown. Answers how many were left. */
  async flush(deadlineMs = 10_000): Promise<number> {
    const deadline = Date.now() + deadlineMs;
    while (this.buffer.size > 0 || this.inFlight) {
      if (Date.now() > deadline) break;
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      await (this.inFlight ?? this.writeBatch());
      if (this.failing && this.buffer.size > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(this.retryDelayMs, Math.max(0, deadline - Date.now()))));
    }
    if (this.buffer.size > 0) this.warn(`flowgate: activity logs: ${this.buffer.size} entries could not be written before shutting down`);
    return this.buffer.size;
  }

  /** A full batch goes at once; a partial one waits a little for company; a failing store is retried with backoff. */
  private schedule(): void {
    if (this.inFlight || this.buffer.size === 0) return;
    const delay = this.failing ? this.retryDelayMs : this.buffer.size >= this.batchSize ? 0 : this.flushIntervalMs;
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.writeBatch();
    }, delay);
    this.timer.unref();
  }

  private writeBatch(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const batch: ActivityLog[] = [];
    for (const log of this.buffer.values()) {
      if (batch.length === this.batchSize) break;
      batch.push(log);
    }
    if (batch.length === 0) return Promise.resolve();
    for (const log of batch) this.buffer.delete(log.id);
    this.inFlight = this.sink
      .recordActivity(batch)
      .then(() => {
        this.counts.written += batch.length;
        if (this.failing) {
          this.warn(`flowgate: activity logs: the store takes entries again${this.droppedWhileFull ? `; ${this.droppedWhileFull} were dropped while it failed` : ""}`);
        }
        this.failing = false;
        this.retryDelayMs = 0;
        this.droppedWhileFull = 0;
      })
      .catch((error: unknown) => {
        // Back at the front, unless a newer entry for the same call arrived meanwhile.
        this.buffer = new Map([...batch.filter((log) => !this.buffer.has(log.id)).map((log) => [log.id, log] as const), ...this.buffer]);
        this.retryDelayMs = Math.min(this.maxRetryDelayMs, Math.max(100, this.retryDelayMs * 2));
        if (!this.failing) this.warn(`flowgate: activity logs: the store failed (${(error as Error).message}); ${this.buffer.size} entries held, retrying`);
        this.failing = true;
      })
      .finally(() => {
        this.inFlight = null;
        this.schedule();
      });
    return this.inFlight;
  }
}
