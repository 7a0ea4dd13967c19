// Activity log writes for the embedded store, on a thread and connection of their own: SQLite's driver is
// synchronous and each commit waits for the disk, which on the server's own thread would stall every request.

import { Worker } from "node:worker_threads";
import type { ActivityLog } from "../model";
import { activityLogParameters, UPSERT_ACTIVITY_LOG } from "../queries/activity-logs";

// Runs in the worker: one connection, the same durability as the store's, one transaction per batch.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const connection = new Database(workerData.file);
connection.pragma("busy_timeout = 15000");
connection.pragma("journal_mode = WAL");
connection.pragma("synchronous = FULL");
const upsert = connection.prepare(workerData.sql);
const write = connection.transaction((rows) => { for (const row of rows) upsert.run(...row); });
parentPort.on("message", ({ id, rows }) => {
  try {
    write(rows);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

export class SqliteActivityThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private next = 0;
  /** Set when the thread has stopped; the store then starts another for the next batch. */
  stopped = false;
  private closing = false;

  constructor(file: string) {
    this.worker = new Worker(WORKER, { eval: true, workerData: { file, sql: UPSERT_ACTIVITY_LOG, driver: require.resolve("better-sqlite3") } });
    this.worker.on("message", ({ id, error }: { id: number; error?: string }) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0 && !this.closing) this.worker.unref();
      if (error) waiting?.reject(new Error(error));
      else waiting?.resolve();
    });
    this.worker.on("error", (error) => {
      this.stopped = true;
      this.failAll(error);
    });
    this.worker.on("exit", () => {
      this.stopped = true;
      this.failAll(new Error("the activity log thread stopped"));
    });
    // An idle writer keeps no process alive; one with batches in flight does, so none is lost on the way out.
    this.worker.unref();
  }

  write(logs: readonly ActivityLog[]): Promise<void> {
    if (this.stopped) return Promise.reject(new Error("the activity log thread stopped"));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, rows: logs.map(activityLogParameters) });
    });
  }

  /** Waits for the batches in flight, then ends the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    // Held while it ends: an unreferenced thread would let the process exit before the ending completes.
    this.closing = true;
    this.worker.ref();
    while (this.pending.size > 0 && !this.stopped) {
      await new Promise((resolve) => {
        this.worker.once("message", resolve);
        this.worker.once("exit", resolve);
      });
    }
    await this.worker.terminate();
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
