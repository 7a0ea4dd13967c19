// Plays Kong's side of the JavaScript plugin server's MessagePack-RPC protocol, against the real
// `kong-js-pluginserver` running the compiled plugin. It answers the plugin's PDK calls from a real HTTP request's
// facts and, when the plugin lets the request through, proxies it with the headers the plugin set, as Kong would.

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { decodeMulti, encode } from "@msgpack/msgpack";

export const PLUGIN_DIR = resolve("dist/plugins/kong-plugin-server");
export const PLUGIN_NAME = "flowgate";
export const PLUGIN_SERVER = resolve("node_modules/kong-pdk/bin/kong-js-pluginserver");

/** A call as Kong's client side would see it. */
export interface KongRequest {
  readonly method: string;
  readonly host: string;
  /** Path and query, as sent. */
  readonly pathWithQuery: string;
  readonly headers?: Record<string, string>;
  readonly body?: Buffer;
  readonly clientIp?: string;
}

export interface KongAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly text: string;
  /** True when the plugin let Kong proxy the request to the runner. */
  readonly proxied: boolean;
  /** The PDK methods the plugin called, in order, before its phase ended. */
  readonly pdkCalls: readonly string[];
}

export interface PdkFaults {
  /** PDK methods to answer with an error, as Kong does when the Lua PDK function fails. */
  readonly failing?: readonly string[];
}

type Message = [number, number, string | null, unknown];

export class KongHarness {
  private msgid = 0;
  private instanceId: number | null = null;

  private constructor(
    private readonly server: ChildProcess,
    readonly socket: string,
    readonly output: { text: string },
    private readonly runnerPort: number,
    private readonly config: Record<string, unknown>,
    private readonly plugin: string,
  ) {}

  /**
   * Starts the real plugin server on a plugin folder (the compiled flowgate plugin by default), with the
   * environment the plugin reads. `runnerPort` 0: requests the plugin lets through are not proxied.
   */
  static async start(
    runnerPort: number,
    environment: NodeJS.ProcessEnv,
    { config = {} as Record<string, unknown>, pluginDir = PLUGIN_DIR, plugin = PLUGIN_NAME } = {},
  ): Promise<KongHarness> {
    const prefix = mkdtempSync(join(tmpdir(), "flowgate-kong-"));
    const socketName = "flowgate.sock";
    const server = spawn(process.execPath, [PLUGIN_SERVER, "-p", prefix, "--sock-name", socketName, "-d", pluginDir], {
      env: { ...process.env, ...environment },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = { text: "" };
    server.stdout!.on("data", (chunk: Buffer) => (output.text += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output.text += chunk.toString()));
    const socket = join(prefix, socketName);
    for (let waited = 0; !existsSync(socket); waited += 20) {
      if (waited > 15_000 || server.exitCode !== null) throw new Error(`the plugin server did not start: ${output.text}`);
      await new Promise((done) => setTimeout(done, 20));
    }
    return new KongHarness(server, socket, output, runnerPort, config, plugin);
  }

  /** One RPC, as Kong makes it: a connection, one request, one reply. */
  async rpc(method: string, ...args: unknown[]): Promise<unknown> {
    const msgid = ++this.msgid;
    const reply = await new Promise<Message>((resolveReply, reject) => {
      const connection = connect(this.socket);
      const chunks: Buffer[] = [];
      connection.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        try {
          for (const message of decodeMulti(Buffer.concat(chunks))) {
            connection.end();
            resolveReply(message as Message);
            return;
          }
        } catch {
          // Not all of the reply yet.
        }
      });
      connection.on("error", reject);
      connection.write(encode([0, msgid, method, args]));
    });
    const [, id, error, result] = reply;
    if (id !== msgid) throw new Error(`reply #${id} to request #${msgid}`);
    if (error) throw new Error(String(error));
    return result;
  }

  async pluginInfo(): Promise<unknown> {
    return this.rpc("plugin.GetPluginInfo", this.plugin);
  }

  private async instance(): Promise<number> {
    if (this.instanceId === null) {
      // Kong passes the plugin's configuration, defaults applied, with its own ids beside it.
      const config = { poll_interval_ms: 100, ...this.config, route_id: "route-1", service_id: "runner", __key__: "flowgate:1", __seq__: 1 };
      const started = (await this.rpc("plugin.StartInstance", { Name: this.plugin, Config: JSON.stringify(config) })) as { Id: number };
      this.instanceId = started.Id;
    }
    return this.instanceId;
  }

  /** Runs the access phase for `call`, then answers as Kong would: the plugin's exit, or the runner's response. */
  async handle(call: KongRequest, faults: PdkFaults = {}): Promise<KongAnswer> {
    const instanceId = await this.instance();
    const headers = Object.fromEntries(Object.entries({ host: call.host, ...call.headers }).map(([name, value]) => [name.toLowerCase(), value]));
    const upstream = { ...headers };
    const pdkCalls: string[] = [];
    let step = (await this.rpc("plugin.HandleEvent", { InstanceId: instanceId, EventName: "access" })) as { Data: unknown; EventId: number };
    for (;;) {
      if (step.Data === "ret") break;
      const { Method: method, Args: args } = step.Data as { Method: string; Args: unknown[] };
      pdkCalls.push(method);
      if (faults.failing?.includes(method)) {
        step = (await this.rpc("plugin.StepError", { EventId: step.EventId, Data: "simulated PDK failure" })) as typeof step;
        continue;
      }
      if (method === "kong.response.exit") {
        // Kong ends the request here: the phase's coroutine never resumes.
        const [status, body, exitHeaders] = args as [number, string | Uint8Array | undefined, Record<string, string> | undefined];
        const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
        return { status, headers: { ...exitHeaders }, body: bytes, text: bytes.toString("utf8"), proxied: false, pdkCalls };
      }
      const [rpcMethod, data] = this.answer(method, args, call, headers, upstream);
      step = (await this.rpc(rpcMethod, data === undefined ? { EventId: step.EventId } : { EventId: step.EventId, Data: data })) as typeof step;
    }
    if (this.runnerPort === 0) return { status: 0, headers: upstream, body: Buffer.alloc(0), text: "", proxied: true, pdkCalls };
    const answer = await this.proxy(call, upstream);
    return { ...answer, proxied: true, pdkCalls };
  }

  /** What Kong's Lua PDK would answer; header tables travel through StepMultiMap, each value in a list. */
  private answer(method: string, args: unknown[], call: KongRequest, headers: Record<string, string>, upstream: Record<string, string>): [string, unknown] {
    switch (method) {
      case "kong.request.get_method":
        return ["plugin.Step", call.method];
      case "kong.request.get_path_with_query":
        return ["plugin.Step", call.pathWithQuery];
      case "kong.request.get_headers":
        return ["plugin.StepMultiMap", Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]))];
      case "kong.client.get_forwarded_ip":
        return ["plugin.Step", call.clientIp ?? "198.51.100.20"];
      case "kong.service.request.set_headers":
        Object.assign(upstream, Object.fromEntries(Object.entries(args[0] as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value])));
        return ["plugin.Step", undefined];
      case "kong.service.request.clear_header":
        delete upstream[String(args[0]).toLowerCase()];
        return ["plugin.Step", undefined];
      case "kong.log.err":
        this.output.text += `[kong.log.err] ${args.join(" ")}\n`;
        return ["plugin.Step", undefined];
      default:
        throw new Error(`the harness does not know PDK method ${method}`);
    }
  }

  /** Kong proxying to the runner Service: the same method, path and query, the original Host, the headers as set. */
  private proxy(call: KongRequest, headers: Record<string, string>): Promise<Omit<KongAnswer, "proxied" | "pdkCalls">> {
    return new Promise((resolveAnswer, reject) => {
      const outgoing = httpRequest({ host: "127.0.0.1", port: this.runnerPort, method: call.method, path: call.pathWithQuery, headers, agent: false }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => {
          const body = Buffer.concat(chunks);
          resolveAnswer({ status: incoming.statusCode ?? 0, headers: incoming.headers, body, text: body.toString("utf8") });
        });
      });
      outgoing.on("error", reject);
      outgoing.end(call.body);
    });
  }

  async stop(): Promise<void> {
    if (this.server.exitCode !== null) return;
    const exited = new Promise((done) => this.server.once("exit", done));
    this.server.kill("SIGTERM");
    await exited;
  }
}
