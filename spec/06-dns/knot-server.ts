// Test helper: a real authoritative DNS server (Knot DNS, from Debian's `knot` package) on loopback, with a zone per
// base domain and a TSIG key made for the test, that accepts signed dynamic updates.

import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exchange, queryMessage } from "../../dns/rfc2136/dns-messages";

export type KnotAvailability = { readonly available: true } | { readonly available: false; readonly reason: string };

export function knotAvailability(): KnotAvailability {
  const found = spawnSync("knotd", ["--version"], { encoding: "utf8" });
  if (!found.error) return { available: true };
  const reason = "Knot DNS (knotd) is not installed here (apt-get install knot); the RFC 2136 tests need it";
  if (process.env.CI === "true") throw new Error(`${reason}, and under CI they may not be skipped`);
  console.log(`Skipping the RFC 2136 DNS tests: ${reason}`);
  return { available: false, reason };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export class KnotServer {
  private constructor(
    private readonly process: ChildProcess,
    readonly port: number,
    readonly keyName: string,
    readonly secret: string,
  ) {}

  static async start(zones: readonly string[]): Promise<KnotServer> {
    const dir = mkdtempSync(join(tmpdir(), "flowgate-knot-"));
    const port = await freePort();
    const secret = randomBytes(32).toString("base64");
    const keyName = "flowgate-test";
    for (const zone of zones) {
      writeFileSync(join(dir, `${zone}.zone`), `$ORIGIN ${zone}.\n$TTL 300\n@ SOA ns1 hostmaster 1 3600 600 86400 300\n@ NS ns1\nns1 A 127.0.0.1\n`);
    }
    writeFileSync(
      join(dir, "knot.conf"),
      [
        "server:",
        `    listen: 127.0.0.1@${port}`,
        `    rundir: "${dir}"`,
        ...(process.getuid?.() === 0 ? ["    user: root:root"] : []),
        "log:",
        "  - target: stderr",
        "    any: warning",
        "database:",
        `    storage: "${dir}"`,
        "key:",
        `  - id: ${keyName}`,
        "    algorithm: hmac-sha256",
        `    secret: ${secret}`,
        "acl:",
        "  - id: update",
        `    key: ${keyName}`,
        "    action: update",
        "zone:",
        ...zones.flatMap((zone) => [`  - domain: ${zone}`, `    storage: "${dir}"`, `    file: ${zone}.zone`, "    acl: update"]),
      ].join("\n"),
    );
    const child = spawn("knotd", ["-c", join(dir, "knot.conf")], { stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const server = new KnotServer(child, port, keyName, secret);
    for (let attempt = 0; ; attempt++) {
      try {
        await exchange({ host: "127.0.0.1", port }, queryMessage(`ns1.${zones[0]}`, "A"), 200);
        return server;
      } catch {
        if (attempt > 50 || child.exitCode !== null) throw new Error(`knotd did not start: ${errors}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** The A records the server holds for `host`. */
  async addresses(host: string): Promise<string[]> {
    const reply = await exchange({ host: "127.0.0.1", port: this.port }, queryMessage(host, "A"), 1000);
    return (reply.answers ?? []).flatMap((answer) => (answer.type === "A" ? [String((answer as { data: unknown }).data)] : []));
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null) return;
    const exited = new Promise((resolve) => this.process.once("exit", resolve));
    this.process.kill("SIGTERM");
    await exited;
  }
}
