// Test helper: `flowgate serve`'s handler on a real port, over a temporary embedded store holding a given flowgate.yaml.

import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../../cli/config/load-config";
import { openStore } from "../../store/open-store";
import type { Store } from "../../store/store";
import { SnapshotCache } from "../../store/snapshot-cache";
import { Sandbox } from "../../runner/sandbox/sandbox";
import { ActivityLogWriter } from "../../runner/activity-log/activity-log-writer";
import { serveHandler } from "../../runner/serve-handler";
import { runnerHandler } from "../../runner/runner-handler";
import type { Authenticate } from "../../plugins/flowgate/auth/authenticate";
import { authenticator } from "../../plugins/flowgate/auth/authenticate";
import type { Authentication } from "../../plugins/flowgate/auth/built-in-authentication";
import type { GatewaySnapshot } from "../../store/snapshot";
import { configFolder } from "../03-cli/config-files";
import type { ActivityLog } from "../../store/model";

export interface Served {
  readonly port: number;
  /** The embedded store's folder, for another process to share. */
  readonly dataDir: string;
  readonly store: Store;
  readonly snapshots: SnapshotCache;
  readonly activityLog: ActivityLogWriter;
  readonly warnings: string[];
  /** The activity log of a call, once the writer has stored it with its finish. */
  logOf(activityId: string): Promise<ActivityLog>;
  close(): Promise<void>;
}

export interface ServeOptions {
  readonly files?: Record<string, string>;
  readonly authenticate?: Authenticate;
  readonly environment?: NodeJS.ProcessEnv;
  /** Serve as the runner behind Kong, with this dispatch secret, instead of as `flowgate serve`. */
  readonly runnerSecret?: Buffer;
  /** The authentication to serve with, made once the store is open; `authenticate` alone otherwise. */
  readonly authentication?: (snapshot: () => GatewaySnapshot, store: Store) => Authentication;
}

export async function serve(yaml: string, { files = {}, authenticate = authenticator([]), environment = {}, runnerSecret, authentication }: ServeOptions = {}): Promise<Served> {
  const { file, dir } = configFolder(yaml, files);
  const checked = loadConfig(file, { resolveSecrets: true, environment });
  if (!checked.ok) throw new Error(checked.problems.map((problem) => problem.message).join("\n"));
  const store = await openStore({ dataDir: `${dir}/data` });
  await store.apply(checked.desired);
  const snapshots = await SnapshotCache.start(store, { pollMs: 100 });
  const sandbox = new Sandbox();
  const warnings: string[] = [];
  const activityLog = new ActivityLogWriter(store, { flushIntervalMs: 10, warn: (message) => warnings.push(message) });
  const runner = { sandbox, activityLog, environment };
  const warn = (message: string) => warnings.push(message);
  const handler = runnerSecret
    ? runnerHandler({ snapshots, runner, secret: runnerSecret, warn })
    : serveHandler({ snapshots, runner, authentication: authentication?.(() => snapshots.current(), store) ?? { authenticate }, warn });
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    dataDir: `${dir}/data`,
    store,
    snapshots,
    activityLog,
    warnings,
    async logOf(activityId) {
      for (let attempt = 0; attempt < 100; attempt++) {
        const [log] = (await store.activityLogs({ limit: 1000 })).filter((entry) => entry.id === activityId && entry.finishedAt !== null);
        if (log) return log;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no finished activity log ${activityId}`);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await activityLog.flush();
      await snapshots.stop();
      sandbox.close();
      await store.close();
    },
  };
}
