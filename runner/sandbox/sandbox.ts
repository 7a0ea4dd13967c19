// Runs Workflow revisions in isolated-vm. Instances are kept warm per revision (compiled once, like warm serverless
// instances), never shared between Sites or revisions, and replaced when a call had to be stopped.

import type { Revision } from "../../store/model";
import type { CallContext, HostServices, SandboxOutcome } from "./sandbox-types";
import { InvalidWorkflowCode, OVER_SYNC_BUDGET, WorkflowInstance } from "./workflow-instance";

export interface SandboxOptions {
  /** Warm instances kept per revision; more calls at once than this wait their turn. */
  readonly instancesPerRevision?: number;
  /**
   * How long a Workflow's synchronous part may run on the server's own thread (the fast path); 0 turns the fast
   * path off. A revision that overruns it once runs on the isolate's thread from then on.
   */
  readonly syncBudgetMs?: number;
}

interface RevisionPool {
  readonly idle: WorkflowInstance[];
  busy: number;
  readonly waiting: (() => void)[];
  fastPath: boolean;
}

export class Sandbox {
  private readonly pools = new Map<string, RevisionPool>();
  private readonly instancesPerRevision: number;
  private readonly syncBudgetMs: number;

  constructor(options: SandboxOptions = {}) {
    this.instancesPerRevision = options.instancesPerRevision ?? 8;
    this.syncBudgetMs = options.syncBudgetMs ?? 10;
  }

  /**
   * Runs a call on a warm instance of `revision`. A `nested` call (one Workflow calling another) never waits for
   * an instance: the caller holds one already, and waiting could deadlock a Workflow that calls itself.
   */
  async run(revision: Revision, inputs: Record<string, unknown>, meta: CallContext, host: HostServices, { nested = false } = {}): Promise<SandboxOutcome> {
    const pool = this.poolFor(revision);
    while (!nested && pool.idle.length === 0 && pool.busy >= this.instancesPerRevision) await new Promise<void>((resolve) => pool.waiting.push(resolve));
    pool.busy++;
    let instance: WorkflowInstance | undefined;
    try {
      const name = `${revision.site}/${revision.workflow}@${revision.number}`;
      instance = pool.idle.pop() ?? (await WorkflowInstance.create(revision.code, revision.limits, name));
      const budget = pool.fastPath && this.syncBudgetMs > 0 ? Math.min(this.syncBudgetMs, revision.limits.cpuMs) : undefined;
      const outcome = await instance.run(inputs, meta, host, revision.limits, budget);
      if (outcome !== OVER_SYNC_BUDGET) return outcome;
      pool.fastPath = false;
      instance = await WorkflowInstance.create(revision.code, revision.limits, name);
      const retried = await instance.run(inputs, meta, host, revision.limits);
      if (retried === OVER_SYNC_BUDGET) throw new Error("a call without the fast path cannot overrun its budget");
      return retried;
    } catch (error) {
      if (error instanceof InvalidWorkflowCode) return { ok: false, failure: "invalid-code", message: error.message };
      throw error;
    } finally {
      pool.busy--;
      // An instance stopped for a limit is gone; the next call gets a fresh one. Extra instances made for nested
      // calls are not kept beyond the pool's size.
      if (instance?.usable && pool.idle.length < this.instancesPerRevision) pool.idle.push(instance);
      else instance?.dispose();
      pool.waiting.shift()?.();
    }
  }

  /** Drops the warm instances of revisions no longer live, so their memory comes back. */
  retain(live: (key: string) => boolean): void {
    for (const [key, pool] of this.pools) {
      if (live(key) || pool.busy > 0) continue;
      for (const instance of pool.idle) instance.dispose();
      this.pools.delete(key);
    }
  }

  close(): void {
    for (const pool of this.pools.values()) for (const instance of pool.idle) instance.dispose();
    this.pools.clear();
  }

  private poolFor(revision: Revision): RevisionPool {
    const key = revisionKey(revision);
    let pool = this.pools.get(key);
    if (!pool) this.pools.set(key, (pool = { idle: [], busy: 0, waiting: [], fastPath: true }));
    return pool;
  }
}

/** Identifies a revision's warm instances: the Site is part of it, so no instance ever serves two Sites. */
export function revisionKey(revision: Pick<Revision, "site" | "workflow" | "number" | "contentHash">): string {
  return `${revision.site}\u0000${revision.workflow}\u0000${revision.number}\u0000${revision.contentHash}`;
}

