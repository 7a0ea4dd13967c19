// Writes activity logs off the response path: calls hand entries over and go on, batches go to the store in the
// background. When the store fails, entries wait and the batch is retried; past a bound, new entries are dropped
// (and counted) rather than let memory grow without end, and the operator is told.

import type { ActivityLog } from "../../store/model";

export interface ActivitySink {
  recordActivity(logs: readonly ActivityLog[]): Promise<void>;
}

export interface ActivityLogWriterOptions {
  readonly batchSize?: number;
  readonly flushIntervalMs?: number;
  /** Entries held at most while the store is failing. */
  readonly maxBuffered?: number;
  readonly maxRetryDelayMs?: number;
  /** Where operator messages go. */
  readonly warn?: (message: string) => void;
}

export class ActivityLogWriter {
  private buffer: ActivityLog[] = [];
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
    this.batchSize = options.batchSize ?? 200;
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.maxBuffered = options.maxBuffered ?? 10_000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 5_000;
    this.warn = options.warn ?? ((message) => console.error(message));
  }

  get buffered(): number {
    return this.buffer.length;
  }

  /** Takes an entry; never waits and never throws. */
  write(log: ActivityLog): void {
    if (this.buffer.length >= this.maxBuffered) {
      this.counts.dropped++;
      if (this.droppedWhileFull++ === 0) {
        this.warn(`flowgate: activity logs: ${this.maxBuffered} entries are waiting for the store, the most this node holds; new entries are dropped until the store takes them again`);
      }
      return;
    }
    this.buffer.push(log);
    this.schedule(this.failing ? this.retryDelayMs : this.flushIntervalMs);
  }

  /** Writes everything held, retrying until done or until `deadline`; for shutdown. Answers how many were left. */
  async flush(deadlineMs = 10_000): Promise<number> {
    const deadline = Date.now() + deadlineMs;
    while (this.buffer.length > 0 || this.inFlight) {
      if (Date.now() > deadline) break;
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      await (this.inFlight ?? this.writeBatch());
      if (this.failing && this.buffer.length > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(this.retryDelayMs, Math.max(0, deadline - Date.now()))));
    }
    if (this.buffer.length > 0) this.warn(`flowgate: activity logs: ${this.buffer.length} entries could not be written before shutting down`);
    return this.buffer.length;
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.inFlight) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.writeBatch();
    }, delayMs);
    this.timer.unref();
  }

  private writeBatch(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const batch = this.buffer.slice(0, this.batchSize);
    if (batch.length === 0) return Promise.resolve();
    this.inFlight = this.sink
      .recordActivity(batch)
      .then(() => {
        this.buffer.splice(0, batch.length);
        this.counts.written += batch.length;
        if (this.failing) {
          this.warn(`flowgate: activity logs: the store takes entries again${this.droppedWhileFull ? `; ${this.droppedWhileFull} were dropped while it failed` : ""}`);
        }
        this.failing = false;
        this.retryDelayMs = 0;
        this.droppedWhileFull = 0;
      })
      .catch((error: unknown) => {
        this.retryDelayMs = Math.min(this.maxRetryDelayMs, Math.max(100, this.retryDelayMs * 2));
        if (!this.failing) {
          this.warn(`flowgate: activity logs: the store failed (${(error as Error).message}); ${this.buffer.length} entries held, retrying`);
        }
        this.failing = true;
      })
      .finally(() => {
        this.inFlight = null;
        if (this.buffer.length > 0) this.schedule(this.failing ? this.retryDelayMs : this.flushIntervalMs);
      });
    return this.inFlight;
  }
}
