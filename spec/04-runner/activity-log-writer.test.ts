import { beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { ActivityLogWriter } from "../../runner/activity-log/activity-log-writer";
import type { ActivitySink } from "../../runner/activity-log/activity-log-writer";
import type { ActivityLog } from "../../store/model";
import { Store } from "../../store/store";
import { openPostgresDatabase } from "../../store/postgres/postgres-database";
import { postgresAvailability, TEST_DATABASE_URL } from "../02-store/postgres-availability";
import type { Availability } from "../02-store/postgres-availability";

function entry(index: number): ActivityLog {
  return {
    id: `act-${index}`,
    site: "acme",
    workflow: "order",
    revision: 1,
    environment: "Production",
    method: "GET",
    url: `/orders/${index}`,
    principal: null,
    startedAt: 1_000 + index,
    initialisationXml: "<Initialisation/>",
    finishedAt: null,
    status: null,
    durationMs: null,
    error: null,
    messages: [],
  };
}

/** A sink that fails while `failing` is true, and records what it was given. */
class FlakySink implements ActivitySink {
  failing = false;
  readonly stored = new Map<string, ActivityLog>();
  batches = 0;
  async recordActivity(logs: readonly ActivityLog[]): Promise<void> {
    if (this.failing) throw new Error("connection reset");
    this.batches++;
    for (const log of logs) this.stored.set(log.id, log);
  }
}

describe("the activity log writer", () => {
  it("takes entries without waiting and writes them in batches", async () => {
    const sink = new FlakySink();
    const writer = new ActivityLogWriter(sink, { batchSize: 50, flushIntervalMs: 5 });
    for (let index = 0; index < 120; index++) writer.write(entry(index));
    expect(sink.stored.size).toBe(0);
    await expect.poll(() => sink.stored.size, { timeout: 2000, interval: 10 }).toBe(120);
    expect(sink.batches).toBe(3);
    expect(writer.counts).toEqual({ written: 120, dropped: 0 });
  });

  it("writes a call's start and finish as one entry when both are still waiting", async () => {
    const sink = new FlakySink();
    const writer = new ActivityLogWriter(sink, { flushIntervalMs: 5 });
    writer.write(entry(1));
    writer.write({ ...entry(1), finishedAt: 2_000, status: 200, durationMs: 999 });
    expect(await writer.flush()).toBe(0);
    expect(writer.counts.written).toBe(1);
    expect(sink.stored.get("act-1")).toMatchObject({ status: 200, durationMs: 999 });
  });

  it("holds entries while the store fails, retries, and tells the operator once each way", async () => {
    const sink = new FlakySink();
    const warnings: string[] = [];
    const writer = new ActivityLogWriter(sink, { flushIntervalMs: 5, maxRetryDelayMs: 20, warn: (message) => warnings.push(message) });
    sink.failing = true;
    for (let index = 0; index < 30; index++) writer.write(entry(index));
    await expect.poll(() => warnings.length, { timeout: 2000, interval: 10 }).toBe(1);
    expect(warnings[0]).toMatch(/^flowgate: activity logs: the store failed \(connection reset\); 30 entries held, retrying$/);
    expect(writer.buffered).toBe(30);
    sink.failing = false;
    await expect.poll(() => sink.stored.size, { timeout: 2000, interval: 10 }).toBe(30);
    expect(warnings[1]).toBe("flowgate: activity logs: the store takes entries again");
  });

  it("drops new entries past its bound, counting them and saying so, and keeps every entry below it", async () => {
    const sink = new FlakySink();
    const warnings: string[] = [];
    const writer = new ActivityLogWriter(sink, { maxBuffered: 100, flushIntervalMs: 5, maxRetryDelayMs: 20, warn: (message) => warnings.push(message) });
    sink.failing = true;
    for (let index = 0; index < 150; index++) writer.write(entry(index));
    expect(writer.counts.dropped).toBe(50);
    expect(warnings).toContain("flowgate: activity logs: 100 entries are waiting for the store, the most this node holds; new entries are dropped until the store takes them again");
    await expect.poll(() => warnings.some((warning) => warning.includes("the store failed")), { timeout: 2000, interval: 5 }).toBe(true);
    sink.failing = false;
    expect(await writer.flush(2000)).toBe(0);
    expect([...sink.stored.keys()]).toEqual(Array.from({ length: 100 }, (_, index) => `act-${index}`));
    expect(warnings[warnings.length - 1]).toBe("flowgate: activity logs: the store takes entries again; 50 were dropped while it failed");
  });

  it("flushes everything on shutdown, and says what it could not write before its deadline", async () => {
    const sink = new FlakySink();
    const warnings: string[] = [];
    const writer = new ActivityLogWriter(sink, { flushIntervalMs: 10_000, maxRetryDelayMs: 10, warn: (message) => warnings.push(message) });
    for (let index = 0; index < 10; index++) writer.write(entry(index));
    expect(await writer.flush()).toBe(0);
    expect(sink.stored.size).toBe(10);
    sink.failing = true;
    writer.write(entry(99));
    expect(await writer.flush(100)).toBe(1);
    expect(warnings[warnings.length - 1]).toBe("flowgate: activity logs: 1 entries could not be written before shutting down");
  });
});

describe("the activity log writer against PostgreSQL connections killed mid-load", () => {
  let availability: Availability | undefined;
  beforeAll(async () => {
    availability = await postgresAvailability();
  });

  it("loses no entry below its bound", async (context) => {
    if (availability && !availability.available) context.skip(availability.reason);
    const schema = `flowgate_test_kill_${process.pid}_${Date.now()}`;
    const applicationName = `flowgate-kill-test-${process.pid}`;
    const store = await Store.open(await openPostgresDatabase({ url: TEST_DATABASE_URL, schema, applicationName }));
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const warnings: string[] = [];
    const writer = new ActivityLogWriter(store, { batchSize: 25, flushIntervalMs: 2, maxRetryDelayMs: 50, warn: (message) => warnings.push(message) });
    try {
      const total = 2000;
      let killed = 0;
      for (let index = 0; index < total; index++) {
        writer.write(entry(index));
        if (index % 400 === 200) {
          // Every connection the store holds to this database is cut, as a failover or a restart would.
          const result = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [applicationName]);
          killed += result.rowCount ?? 0;
        }
        if (index % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(killed).toBeGreaterThan(0);
      expect(await writer.flush(20_000)).toBe(0);
      expect(writer.counts).toEqual({ written: total, dropped: 0 });
      const stored = await store.activityLogs({ limit: total + 10 });
      expect(new Set(stored.map((log) => log.id)).size).toBe(total);
      expect(warnings.some((warning) => warning.startsWith("flowgate: activity logs: the store failed"))).toBe(true);
    } finally {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});
