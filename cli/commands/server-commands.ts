// `flowgate serve` (the whole pipeline in one process, for development and small deployments) and `flowgate runner`
// (the execution half, behind Kong). Both stop gracefully on SIGTERM or SIGINT: no new connections, calls in
// flight finish, activity logs are flushed.

import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Command } from "commander";
import type { Io } from "../output";
import { CliError, EXIT } from "../exit-codes";
import { openStoreFor } from "../store-command";
import { loadConfig } from "../config/load-config";
import { formatProblem } from "../config/config-error";
import { parsePositiveInteger } from "./promote-command";
import { SnapshotCache } from "../../store/snapshot-cache";
import type { Store } from "../../store/store";
import { revisionKey, Sandbox } from "../../runner/sandbox/sandbox";
import { ActivityLogWriter } from "../../runner/activity-log/activity-log-writer";
import { serveHandler } from "../../runner/serve-handler";
import { runnerHandler } from "../../runner/runner-handler";
import { builtInAuthentication } from "../../plugins/flowgate/auth/built-in-authentication";
import { dispatchSecret } from "../../plugins/flowgate/dispatch-record";

interface ServerOptions {
  readonly port: number;
  readonly host: string;
  readonly apply?: string;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Running {
  readonly store: Store;
  readonly snapshots: SnapshotCache;
  readonly sandbox: Sandbox;
  readonly activityLog: ActivityLogWriter;
}

async function run(command: Command, io: Io, options: ServerOptions, name: string, makeHandler: (running: Running) => Handler): Promise<void> {
  const warn = (message: string) => io.stderr(`${message}\n`);
  const store = await openStoreFor(command, io);
  if (options.apply) await applyAtStart(store, options.apply, io);
  const sandbox = new Sandbox();
  const snapshots = await SnapshotCache.start(store, {
    onError: (error) => warn(`flowgate: cannot refresh the configuration: ${(error as Error).message}`),
    // Warm instances of revisions no longer live anywhere give their memory back.
    onChange: (snapshot) => {
      const live = new Set([...snapshot.sitesByHost.values()].flatMap((site) => [...site.environments.values()].flatMap((environment) => environment.bindings.map((binding) => revisionKey(binding.workflow)))));
      sandbox.retain((key) => live.has(key));
    },
  });
  const activityLog = new ActivityLogWriter(store, { warn });
  const server = createServer(makeHandler({ store, snapshots, sandbox, activityLog }));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(new CliError(EXIT.failure, `cannot listen on ${options.host}:${options.port}: ${error.message}`)));
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  io.stdout(`${name} listening on http://${options.host}:${port}\n`);
  for (const host of snapshots.current().sitesByHost.keys()) io.stdout(`  Site: http://${host}:${port}/\n`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      io.stdout(`${name} stopping: finishing calls in flight and writing activity logs\n`);
      server.close(() => resolve());
      server.closeIdleConnections();
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  await activityLog.flush();
  await snapshots.stop();
  sandbox.close();
  await store.close();
  io.stdout(`${name} stopped\n`);
}

async function applyAtStart(store: Store, file: string, io: Io): Promise<void> {
  const checked = loadConfig(file, { resolveSecrets: true, environment: io.environment });
  if (!checked.ok) {
    for (const problem of checked.problems) io.stderr(`${formatProblem(problem)}\n`);
    await store.close();
    throw new CliError(EXIT.invalidConfiguration, `${file} was not applied: it has errors`);
  }
  const report = await store.apply(checked.desired);
  io.stdout(report.changes.length ? `applied ${file}: ${report.changes.length} change(s)\n` : `${file}: the store already matches it\n`);
}

function addServerOptions(command: Command, defaultPort: string): Command {
  return command
    .option("--port <port>", `the port to listen on (default ${defaultPort})`, (text) => (text === "0" ? 0 : parsePositiveInteger(text)), Number(defaultPort))
    .option("--host <address>", "the address to listen on", "127.0.0.1");
}

export function registerServerCommands(program: Command, io: Io): void {
  addServerOptions(
    program.command("serve").description("serve the Workflows over HTTP in one process: routing, authentication, CORS and the runner, on the embedded store by default"),
    "8080",
  )
    .option("--apply <file>", "apply this flowgate.yaml before serving")
    .action(async (options: ServerOptions, command: Command) =>
      run(command, io, options, "flowgate serve", ({ store, snapshots, sandbox, activityLog }) =>
        serveHandler({
          snapshots,
          runner: { sandbox, activityLog, environment: io.environment },
          authentication: builtInAuthentication(() => snapshots.current(), store),
          warn: (message) => io.stderr(`${message}\n`),
        }),
      ),
    );

  addServerOptions(program.command("runner").description("run Workflows for requests forwarded by the Kong plugin (needs FLOWGATE_DISPATCH_SECRET, shared with the plugin)"), "8081")
    .action(async (options: ServerOptions, command: Command) => {
      let secret: Buffer;
      try {
        secret = dispatchSecret(io.environment.FLOWGATE_DISPATCH_SECRET);
      } catch (error) {
        throw new CliError(EXIT.usage, (error as Error).message);
      }
      return run(command, io, options, "flowgate runner", ({ snapshots, sandbox, activityLog }) =>
        runnerHandler({ snapshots, runner: { sandbox, activityLog, environment: io.environment }, secret, warn: (message) => io.stderr(`${message}\n`) }),
      );
    });
}
