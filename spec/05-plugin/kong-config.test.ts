import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cliIn } from "../03-cli/run-cli";
import { EXIT } from "../../cli/exit-codes";
import { SCHEMA } from "../../plugins/flowgate/schema";

const KONG_CORS_METHODS = ["GET", "HEAD", "PUT", "PATCH", "POST", "DELETE", "OPTIONS", "TRACE", "CONNECT"];
const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

interface Route {
  name: string;
  hosts: string[];
  preserve_host: boolean;
  strip_path: boolean;
  plugins: { name: string; config: Record<string, unknown> }[];
}

async function generated(...args: string[]) {
  const result = await cliIn().run("kong-config", "--file", "examples/flowgate.yaml", ...args);
  expect(result.code, result.stderr).toBe(EXIT.ok);
  return { text: result.stdout, config: parse(result.stdout) as Record<string, unknown> };
}

/** What decK 1.4 cannot check: the flowgate plugin's configuration against its schema, and Kong's cors enums. */
function checkPlugins(routes: Route[]): string[] {
  const problems: string[] = [];
  const field = SCHEMA[0]!.poll_interval_ms;
  for (const route of routes) {
    if (!route.hosts.every((host) => HOST.test(host))) problems.push(`${route.name}: a host is not a valid name`);
    if (!route.preserve_host || route.strip_path) problems.push(`${route.name}: the runner needs the original host and path`);
    for (const plugin of route.plugins) {
      if (plugin.name === "flowgate") {
        const unknown = Object.keys(plugin.config).filter((key) => key !== "poll_interval_ms");
        if (unknown.length) problems.push(`${route.name}: unknown flowgate settings ${unknown.join(", ")}`);
        const interval = plugin.config.poll_interval_ms as number;
        if (!Number.isInteger(interval) || interval < field.between[0]! || interval > field.between[1]!) problems.push(`${route.name}: poll_interval_ms out of range`);
      } else if (plugin.name === "cors") {
        if (!(plugin.config.methods as string[]).every((method) => KONG_CORS_METHODS.includes(method))) problems.push(`${route.name}: a cors method Kong does not know`);
        if ((plugin.config.origins as string[]).includes("*") && plugin.config.credentials) problems.push(`${route.name}: credentials with origin *`);
      } else problems.push(`${route.name}: unexpected plugin ${plugin.name}`);
    }
  }
  return problems;
}

describe("flowgate kong-config", () => {
  it("routes each Site host through cors and flowgate to the runner upstream", async () => {
    const { config } = await generated("--runner", "runner-1:8081", "--runner", "runner-2:8081");
    expect(config._format_version).toBe("3.0");
    const [upstream] = config.upstreams as { name: string; targets: { target: string }[]; healthchecks: { active: { http_path: string } } }[];
    expect(upstream!.targets.map((target) => target.target)).toEqual(["runner-1:8081", "runner-2:8081"]);
    expect(upstream!.healthchecks.active.http_path).toBe("/.flowgate/health");
    const [service] = config.services as { host: string; routes: Route[] }[];
    expect(service!.host).toBe(upstream!.name);
    const routes = service!.routes;
    expect(routes.map((route) => [route.name, route.hosts])).toEqual([
      ["flowgate-site-acme", ["acme.flowgate.localhost"]],
      ["flowgate-site-karoo", ["karoo.za.flowgate.localhost"]],
      ["flowgate-session-tokens", ["auth.flowgate.localhost", "auth.za.flowgate.localhost"]],
      ["flowgate-other-hosts", ["*.flowgate.localhost", "*.za.flowgate.localhost"]],
    ]);
    const acmeCors = routes[0]!.plugins.find((plugin) => plugin.name === "cors")!.config;
    expect(acmeCors).toMatchObject({ origins: ["https://app.acme.example", "http://localhost:3000"], credentials: true, preflight_continue: false });
    expect(routes[1]!.plugins.find((plugin) => plugin.name === "cors")!.config).toMatchObject({ origins: ["*"], credentials: false });
    expect(routes.every((route) => route.plugins.some((plugin) => plugin.name === "flowgate"))).toBe(true);
    expect(checkPlugins(routes)).toEqual([]);
    expect(config.certificates).toEqual([
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), cert: "{vault://env/flowgate-tls-cert}", key: "{vault://env/flowgate-tls-key}", snis: [{ name: "*.flowgate.localhost" }, { name: "*.za.flowgate.localhost" }] },
    ]);
  });

  it("generates the same configuration from the store as from the file, and leaves TLS out on request", async () => {
    const cli = cliIn();
    await cli.run("apply", "examples/flowgate.yaml");
    const fromStore = await cli.run("kong-config");
    expect(fromStore.stdout).toBe((await generated()).text);
    expect(parse((await generated("--no-tls")).text).certificates).toBeUndefined();
    expect((await cli.run("kong-config", "--runner", "no port")).code).toBe(EXIT.usage);
  });

  it("writes a file that decK validates", async () => {
    const deck = spawnSync("deck", ["version"], { encoding: "utf8" });
    if (deck.error) {
      if (process.env.CI === "true") throw new Error("deck is not installed; .ci/run installs it (apt-get install deck)");
      console.log("Skipping decK validation: deck is not installed here (apt-get install deck)");
      return;
    }
    const file = join(mkdtempSync(join(tmpdir(), "flowgate-kong-")), "kong.yml");
    writeFileSync(file, (await generated()).text);
    expect(execFileSync("deck", ["validate", "-s", file], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })).toBe("");
  });
});
