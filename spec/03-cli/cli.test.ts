import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../cli/exit-codes";
import { configFolder, MINIMAL } from "./config-files";
import { cliIn } from "./run-cli";
import { openStore } from "../../store/open-store";
import { verifyPassword } from "../../plugins/flowgate/auth/secret-hash";

const EXAMPLE = "examples/flowgate.yaml";

describe("flowgate validate and apply", () => {
  it("validates without touching the store", async () => {
    const cli = cliIn();
    expect(await cli.run("validate", EXAMPLE)).toEqual({ code: EXIT.ok, stdout: `${EXAMPLE} is valid: 2 Sites, 7 Workflows, 1 users, 1 API keys\n`, stderr: "" });
    expect((await cli.run("sites")).stdout).toBe("no Sites: apply a flowgate.yaml first (flowgate apply FILE)\n");
  });

  it("exits 3 with every problem on standard error for a broken file, as JSON too", async () => {
    const { file } = configFolder(MINIMAL.replace("method: GET", "method: TRACE"));
    const cli = cliIn();
    const result = await cli.run("validate", file);
    expect(result.code).toBe(EXIT.invalidConfiguration);
    expect(result.stderr).toContain(`${file}:6:17: error: sites[0].workflows[0].method: HTTP method "TRACE" cannot be bound: it is not one of GET, POST, PUT, PATCH, DELETE\n`);
    const json = await cli.run("validate", file, "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, problems: [{ line: 6, column: 17, path: "sites[0].workflows[0].method", severity: "error" }] });
  });

  it("applies idempotently: a second apply of the same file changes nothing", async () => {
    const cli = cliIn();
    const first = await cli.run("apply", EXAMPLE);
    expect(first.code).toBe(EXIT.ok);
    expect(first.stdout).toContain("created   Workflow acme/annual-revenue revision 1\n");
    expect(first.stdout).toMatch(/applied \d+ change\(s\); configuration version 1\n$/);
    expect(await cli.run("apply", EXAMPLE)).toEqual({ code: EXIT.ok, stdout: "no changes: the store already matches the file\n", stderr: "" });
  });

  it("leaves the store untouched when the file is broken or would overlap", async () => {
    const cli = cliIn();
    const { file, dir } = configFolder(MINIMAL);
    await cli.run("apply", file);
    const before = (await cli.run("workflows", "--json")).stdout;

    writeFileSync(file, MINIMAL.replace("template: /customers/{id}", "template: /customers/{id").replace("name: customer", "name: renamed"));
    expect((await cli.run("apply", file)).code).toBe(EXIT.invalidConfiguration);
    writeFileSync(file, `${MINIMAL}      - name: other\n        method: GET\n        template: /{a}/{b}\n        variableBar: { inputs: [a, b] }\n        code: workflows/customer.js\n`);
    expect((await cli.run("apply", file)).code).toBe(EXIT.invalidConfiguration);
    writeFileSync(join(dir, "workflows", "customer.js"), "export default () => ({ changed: true });");
    writeFileSync(file, MINIMAL.replace("subdomain: acme", "subdomain: www"));
    expect((await cli.run("apply", file)).code).toBe(EXIT.invalidConfiguration);

    expect((await cli.run("workflows", "--json")).stdout).toBe(before);
  });

  it("reports a dry run's changes and writes none", async () => {
    const cli = cliIn();
    const result = await cli.run("apply", EXAMPLE, "--dry-run");
    expect(result.stdout).toMatch(/\d+ change\(s\) would be made; nothing was written \(dry run\)\n$/);
    expect((await cli.run("sites", "--json")).stdout).toContain('"sites": []');
  });

  it("hashes a password taken from the environment, never storing it", async () => {
    const yaml = `${MINIMAL}users:\n  - { name: bob, password: { env: BOB_PASSWORD } }\n`;
    const { file } = configFolder(yaml);
    const cli = cliIn(undefined, { BOB_PASSWORD: "correct horse" });
    expect((await cli.run("apply", file)).code).toBe(EXIT.ok);
    const store = await openStore({ dataDir: cli.dataDir });
    const [bob] = (await store.configuration()).users;
    await store.close();
    expect(await verifyPassword("correct horse", bob!.passwordHash)).toBe(true);
    expect(readFileSync(join(cli.dataDir, "flowgate.db")).includes(Buffer.from("correct horse"))).toBe(false);
  });
});

describe("flowgate explain answers the spec's examples", () => {
  async function applied(yaml = readFileSync(EXAMPLE, "utf8")) {
    const cli = cliIn();
    const { file } = configFolder(yaml);
    const result = await cli.run("apply", file);
    expect(result.code, result.stderr).toBe(EXIT.ok);
    return { cli, file };
  }

  it("GET /reports/revenue/annual/{year} binds year from the path", async () => {
    const { cli } = await applied();
    const result = await cli.run("explain", "GET", "https://acme.flowgate.localhost/reports/revenue/annual/2024", "--json");
    expect(result.code).toBe(EXIT.ok);
    expect(JSON.parse(result.stdout)).toMatchObject({ site: "acme", environment: "Production", outcome: "match", workflow: "annual-revenue", revision: 1, variables: { year: "2024" } });
  });

  it("GET /reports/revenue/?name={reportName} binds reportName from the query", async () => {
    const { cli } = await applied();
    const result = await cli.run("explain", "GET", "acme.flowgate.localhost/reports/revenue/?name=Annual%20Revenue");
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain('Answer:      Workflow named-report revision 1 (GET /reports/revenue/?name={reportName})\nVariables:   reportName="Annual Revenue"\n');
  });

  it("the overlapping GET /customers/{id} and GET /{object}/{id} answer neither, and say why", async () => {
    const yaml = `sites:
  - name: shop
    subdomain: shop
    workflows:
      - { name: customer, method: GET, template: "/customers/{id}", variableBar: { inputs: [id] }, code: w/customer.js }
      - { name: any, method: GET, template: "/{object}/{id}", variableBar: { inputs: [object, id] }, code: w/any.js, allowOverlapWith: [customer] }
`;
    const { cli } = await applied(yaml);
    const result = await cli.run("explain", "GET", "shop.flowgate.localhost/customers/42");
    expect(result.code).toBe(EXIT.notFound);
    expect(result.stdout).toContain('Answer:      404 "There is no service at this location." (2 bindings match, so neither is served)\n');
    expect(result.stdout).toContain('yes    customer  1         GET /customers/{id}  matches, binding id="42"\n');
    expect(result.stdout).toContain('yes    any       1         GET /{object}/{id}   matches, binding object="customers", id="42"\n');
    expect((await cli.run("explain", "GET", "shop.flowgate.localhost/orders/7", "--json")).stdout).toContain('"workflow": "any"');
  });

  it("_profile=Test reaches the revision promoted to Test while Production keeps the older one", async () => {
    const { cli, file } = await applied();
    const changed = readFileSync(file, "utf8").replace("template: /reports/revenue/annual/{year}", "template: /reports/revenue/yearly/{year}");
    writeFileSync(file, changed);
    expect((await cli.run("apply", file)).stdout).toContain("created   Workflow acme/annual-revenue revision 2\n");
    expect((await cli.run("promote", "annual-revenue", "--site", "acme", "--to", "Test")).stdout).toBe("acme/annual-revenue: Test now serves revision 2 (was 1)\n");

    const production = JSON.parse((await cli.run("explain", "GET", "acme.flowgate.localhost/reports/revenue/annual/2024", "--json")).stdout);
    expect(production).toMatchObject({ environment: "Production", outcome: "match", workflow: "annual-revenue", revision: 1 });
    const test = JSON.parse((await cli.run("explain", "GET", "acme.flowgate.localhost/reports/revenue/yearly/2024?_profile=test", "--json")).stdout);
    expect(test).toMatchObject({ environment: "Test", outcome: "match", workflow: "annual-revenue", revision: 2, variables: { year: "2024" } });
    const oldPathInTest = await cli.run("explain", "GET", "acme.flowgate.localhost/reports/revenue/annual/2024?_profile=Test", "--json");
    expect(oldPathInTest.code).toBe(EXIT.notFound);
    expect(JSON.parse(oldPathInTest.stdout)).toMatchObject({ environment: "Test", outcome: "no-service", status: 404 });
  });

  it("says when the host names no Site, or _profile no environment", async () => {
    const { cli } = await applied();
    const unknown = await cli.run("explain", "GET", "https://nobody.flowgate.localhost/x");
    expect(unknown.code).toBe(EXIT.notFound);
    expect(unknown.stdout).toBe('No Site is reached at nobody.flowgate.localhost: 404 "There is no service at this location."\nSites are reached at: acme.flowgate.localhost, karoo.za.flowgate.localhost\n');
    const badProfile = await cli.run("explain", "GET", "https://karoo.za.flowgate.localhost/status?_profile=Staging");
    expect(badProfile.stdout).toBe('Site karoo: 400 Bad Request: this Site has no environment "Staging" (_profile may name: Production, Test)\n');
  });
});

describe("flowgate listings, promote, logs and errors", () => {
  it("lists Sites, Workflows, revisions and routes", async () => {
    const cli = cliIn();
    await cli.run("apply", EXAMPLE);
    expect((await cli.run("sites")).stdout).toContain("karoo  karoo.za.flowgate.localhost  za      Production,Test  latest    apiKey                *");
    expect((await cli.run("workflows", "--site", "karoo")).stdout).toBe("SITE   WORKFLOW  METHOD  TEMPLATE (LATEST)  LATEST  LIVE\nkaroo  status    GET     /status            1       Production:1 Test:1\n");
    expect((await cli.run("revisions", "status", "--site", "karoo", "--json")).stdout).toContain('"liveIn": [\n        "Production",\n        "Test"\n      ]');
    const routes = JSON.parse((await cli.run("routes", "--site", "acme", "--env", "test", "--json")).stdout).routes;
    expect(routes).toHaveLength(6);
    expect(routes[0]).toMatchObject({ site: "acme", host: "acme.flowgate.localhost", environment: "Test" });
  });

  it("exits 5 for what does not exist and 4 for a refused promotion", async () => {
    const cli = cliIn();
    await cli.run("apply", EXAMPLE);
    expect(await cli.run("workflows", "--site", "nope")).toEqual({ code: EXIT.notFound, stdout: "", stderr: 'flowgate: no Site "nope" (Sites: acme, karoo)\n' });
    expect((await cli.run("promote", "missing", "--site", "acme", "--to", "Test")).code).toBe(EXIT.notFound);
    const refused = await cli.run("promote", "status", "--site", "karoo", "--to", "Test");
    expect(refused.code).toBe(EXIT.conflict);
    expect(refused.stderr).toContain('Site "karoo" does not use Release Management');
  });

  it("lists activity logs with their InitialisationXml on request", async () => {
    const cli = cliIn();
    const store = await openStore({ dataDir: cli.dataDir });
    const log = {
      id: "act-7",
      site: "acme",
      workflow: "order",
      revision: 1,
      environment: "Test",
      method: "GET",
      url: "/orders/7?auth=[redacted]",
      principal: "alice",
      startedAt: Date.parse("2026-11-21T10:00:00Z"),
      initialisationXml: "<Initialisation><Environment>Test</Environment></Initialisation>",
      finishedAt: Date.parse("2026-11-21T10:00:00.040Z"),
      status: 200,
      durationMs: 40,
      error: null,
      messages: [],
    };
    await store.recordActivity([log, { ...log, id: "act-8", workflow: "logo", startedAt: log.startedAt - 86_400_000 }]);
    await store.close();
    const listed = await cli.run("logs", "--workflow", "order", "--xml");
    expect(listed.stdout).toContain("2026-11-21T10:00:00.000Z  act-7     acme  order     1    Test         GET /orders/7?auth=[redacted]  200     40  alice");
    expect(listed.stdout).toContain("act-7:\n<Initialisation><Environment>Test</Environment></Initialisation>\n");
    expect(JSON.parse((await cli.run("logs", "--since", "2026-11-21T00:00:00Z", "--json")).stdout).logs.map((entry: { id: string }) => entry.id)).toEqual(["act-7"]);
    expect((await cli.run("logs", "--since", "yesterday")).code).toBe(EXIT.usage);
  });

  it("exits 2 for usage errors, with help", async () => {
    const cli = cliIn();
    const missing = await cli.run("promote", "x", "--to", "Test");
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain("error: required option '--site <site>' not specified");
    expect((await cli.run("frobnicate")).code).toBe(EXIT.usage);
    expect((await cli.run("explain", "GET", "http://[bad")).code).toBe(EXIT.usage);
    const help = await cli.run("apply", "--help");
    expect(help.code).toBe(EXIT.ok);
    expect(help.stdout).toContain("--dry-run");
  });

  it("exits 6 when the store cannot be reached", async () => {
    const cli = cliIn();
    const result = await cli.run("--database-url", "postgres://nobody@127.0.0.1:1/none", "sites");
    expect(result.code).toBe(EXIT.storeUnavailable);
    expect(result.stderr).toMatch(/^flowgate: cannot reach PostgreSQL at postgres:\/\/nobody@127\.0\.0\.1:1\/none: /);
  });

  it("hashes a password from standard input", async () => {
    const cli = cliIn(undefined, { STDIN: "s3cret\n" });
    const result = await cli.run("hash-password");
    expect(await verifyPassword("s3cret", result.stdout.trim())).toBe(true);
    expect((await cliIn().run("hash-password")).code).toBe(EXIT.usage);
  });

  it("runs as the compiled executable with the documented exit codes", () => {
    const bin = join("dist", "cli", "main.js");
    expect(execFileSync(process.execPath, [bin, "validate", EXAMPLE], { encoding: "utf8" })).toContain("is valid");
    const { file } = configFolder(MINIMAL.replace("subdomain: acme", "subdomain: -x"));
    const broken = spawnSync(process.execPath, [bin, "validate", file], { encoding: "utf8" });
    expect(broken.status).toBe(EXIT.invalidConfiguration);
    expect(broken.stderr).toContain(`${file}:3:16: error: sites[0].subdomain: subdomain "-x" is not a valid DNS label`);
  });
});
