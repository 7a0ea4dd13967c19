// Runs Workflow revisions in isolated-vm. Instances are kept warm per revision (compiled once, like warm serverless
// instances), never shared between Sites or revisions, and replaced when a call had to be stopped.

import type { Revision } from "../../store/model";
import type { CallContext, HostServices, SandboxOutcome } from "./sandbox-types";
import { InvalidWorkflowCode, WorkflowInstance } from "./workflow-instance";

export interface SandboxOptions {
  /** Warm instances kept per revision; more calls at once than this wait their turn. */
  readonly instancesPerRevision?: number;
}

interface RevisionPool {
  readonly idle: WorkflowInstance[];
  busy: number;
  readonly waiting: (() => void)[];
}

export class Sandbox {
  private readonly pools = new Map<string, RevisionPool>();
  private readonly instancesPerRevision: number;

  constructor(options: SandboxOptions = {}) {
    this.instancesPerRevision = options.instancesPerRevision ?? 4;
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
      instance = pool.idle.pop() ?? (await WorkflowInstance.create(revision.code, revision.limits, `${revision.site}/${revision.workflow}@${revision.number}`));
      return await instance.run(inputs, meta, host, revision.limits);
    } catch (error) {
      if (error instanceof InvalidWorkflowCode) return { ok: false, failure: "invalid-code", message: error.message };
      throw error;
    } finally {
      pool.busy--;
      // An instance stopped for a limit is gone; the next call gets a fresh one.
      if (instance?.usable) pool.idle.push(instance);
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
    if (!pool) this.pools.set(key, (pool = { idle: [], busy: 0, waiting: [] }));
    return pool;
  }
}

/** Identifies a revision's warm instances: the Site is part of it, so no instance ever serves two Sites. */
export function revisionKey(revision: Pick<Revision, "site" | "workflow" | "number" | "contentHash">): string {
  return `${revision.site}\u0000${revision.workflow}\u0000${revision.number}\u0000${revision.contentHash}`;
}

