// What the Kong plugin keeps in the plugin server process: the store, the routing snapshot kept current, the
// authentication methods and the dispatch secret. Started once, on the first request; requests then read memory.

import { SnapshotCache } from "../../store/snapshot-cache";
import { openStore, storeLocationFromEnvironment } from "../../store/open-store";
import type { Store } from "../../store/store";
import { builtInAuthentication } from "./auth/built-in-authentication";
import type { Authentication } from "./auth/built-in-authentication";
import { dispatchSecret } from "./dispatch-record";

export interface GatewayRuntime {
  readonly store: Store;
  readonly snapshots: SnapshotCache;
  readonly authentication: Authentication;
  readonly secret: Buffer;
}

let started: Promise<GatewayRuntime> | null = null;

/** The runtime, started on first use; a failed start is retried on the next request rather than remembered. */
export function gatewayRuntime(environment: NodeJS.ProcessEnv = process.env, pollMs = 1000): Promise<GatewayRuntime> {
  started ??= start(environment, pollMs).catch((error: unknown) => {
    started = null;
    throw error;
  });
  return started;
}

async function start(environment: NodeJS.ProcessEnv, pollMs: number): Promise<GatewayRuntime> {
  const secret = dispatchSecret(environment.FLOWGATE_DISPATCH_SECRET);
  const store = await openStore(storeLocationFromEnvironment(environment));
  const snapshots = await SnapshotCache.start(store, { pollMs });
  return { store, snapshots, authentication: builtInAuthentication(() => snapshots.current(), store), secret };
}
