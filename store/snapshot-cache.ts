// Keeps the gateway's snapshot current: built once at start, rebuilt when the configuration version changes
// (a release, a revoked key, an apply on another node), so requests read memory, never the database.

import type { Store } from "./store";
import type { GatewaySnapshot } from "./snapshot";
import { buildSnapshot } from "./snapshot";

export class SnapshotCache {
  private snapshot: GatewaySnapshot;
  private stopWatching: (() => Promise<void>) | null = null;
  private refreshing: Promise<void> | null = null;

  private constructor(
    private readonly store: Store,
    initial: GatewaySnapshot,
    private readonly onError: (error: unknown) => void,
    private readonly onChange: (snapshot: GatewaySnapshot) => void,
  ) {
    this.snapshot = initial;
  }

  /**
   * Loads the first snapshot and starts watching; `pollMs` bounds how late a change can be seen. `onChange` hears
   * of each new snapshot.
   */
  static async start(
    store: Store,
    { pollMs = 1000, onError = (_error: unknown): void => undefined, onChange = (_snapshot: GatewaySnapshot): void => undefined } = {},
  ): Promise<SnapshotCache> {
    const cache = new SnapshotCache(store, buildSnapshot(await store.configuration()), onError, onChange);
    cache.stopWatching = await store.watchConfiguration(() => void cache.refresh(), { pollMs });
    return cache;
  }

  /** The snapshot to route this request with. */
  current(): GatewaySnapshot {
    return this.snapshot;
  }

  /** Rebuilds from the store now; concurrent calls share one rebuild. A failed rebuild keeps the last good snapshot. */
  refresh(): Promise<void> {
    this.refreshing ??= this.store
      .configuration()
      .then((configuration) => {
        if (configuration.version < this.snapshot.version) return;
        this.snapshot = buildSnapshot(configuration);
        this.onChange(this.snapshot);
      })
      .catch(this.onError)
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  async stop(): Promise<void> {
    await this.stopWatching?.();
    this.stopWatching = null;
  }
}
