import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFolder } from "../03-cli/config-files";
import { openStore } from "../../store/open-store";
import { call } from "./http-client";

const YAML = `sites:
  - name: shop
    subdomain: shop
    workflows:
      - { name: order, method: GET, template: "/orders/{id}", variableBar: { inputs: [id], outputs: [id] }, code: w/order.js, anonymous: true }
`;

describe("flowgate serve as a process", () => {
  it("serves, then on SIGTERM finishes and writes every activity log before it exits", async () => {
    const { file, dir } = configFolder(YAML, { "w/order.js": "export default ({ id }) => ({ id });" });
    const dataDir = join(dir, "data");
    // Started without --no-node-snapshot: the command restarts itself with it.
    const child = spawn(process.execPath, ["dist/cli/main.js", "--data-dir", dataDir, "serve", "--apply", file, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await expect.poll(() => /listening on http:\/\/127\.0\.0\.1:(\d+)/.test(output), { timeout: 15_000, interval: 50 }).toBe(true);
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]);
    expect(output).toContain("Site: http://shop.flowgate.localhost:");

    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => call(port, { host: "shop.flowgate.localhost", path: `/orders/${index}` })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("flowgate serve stopped");

    const store = await openStore({ dataDir });
    const logs = await store.activityLogs({ limit: 100 });
    await store.close();
    expect(logs.filter((log) => log.status === 200)).toHaveLength(40);
  }, 30_000);
});
