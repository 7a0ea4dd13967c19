import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../04-runner/serve-fixture";
import type { Served } from "../04-runner/serve-fixture";
import { KongHarness, PLUGIN_DIR, PLUGIN_SERVER } from "./kong-harness";
import { call } from "../04-runner/http-client";

const YAML = `sites:
  - name: shop
    subdomain: shop
    environments: [Test]
    releaseManagement: true
    auth: [apiKey, basic, session]
    workflows:
      - { name: annual, method: GET, template: "/reports/revenue/annual/{year}", variableBar: { inputs: [year, FgUsername, FgProfile], outputs: [year, user, env, revision] }, code: w/annual.js }
      - { name: named, method: GET, template: "/reports/revenue/?name={reportName}", variableBar: { inputs: [reportName], outputs: [reportName] }, code: w/named.js }
      - { name: customer, method: GET, template: "/customers/{id}/details", variableBar: { inputs: [id] }, code: w/named.js, anonymous: true }
      - { name: any, method: GET, template: "/{object}/{id}/details", variableBar: { inputs: [object, id] }, code: w/named.js, anonymous: true, allowOverlapWith: [customer] }
      - name: soap
        method: POST
        template: /soap/Quote.asmx
        variableBar: { inputs: [FgRequestBody], outputs: [FgResponseBody, FgResponseContentType, FgResponseCode] }
        code: w/soap.js
        anonymous: true
        limits: { maxBodyBytes: 1024 }
users:
  - { name: alice, password: { env: ALICE_PASSWORD }, sites: [shop] }
apiKeys:
  - { name: reporting, site: shop, environment: Production, primary: { env: REPORTING_KEY } }
  - { name: tester, site: shop, environment: Test, primary: { env: TESTER_KEY } }
`;
const FILES = {
  "w/annual.js": "export default ({ year, FgUsername, FgProfile }, context) => ({ year, user: FgUsername, env: FgProfile, revision: context.revision });",
  "w/named.js": "export default ({ reportName }) => ({ reportName: reportName ?? null });",
  "w/soap.js":
    "export default ({ FgRequestBody }, context) => ({ FgResponseCode: 200, FgResponseContentType: 'text/xml; charset=utf-8', FgResponseBody: '<Answer>' + context.xml.parse(FgRequestBody).Question + '</Answer>' });",
};
const SECRETS = { ALICE_PASSWORD: "alice-pw", REPORTING_KEY: "fg_reporting_key", TESTER_KEY: "fg_tester_key" };
const DISPATCH_SECRET = randomBytes(32).toString("hex");
const shop = "shop.flowgate.localhost";
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

let runner: Served;
let kong: KongHarness;
beforeAll(async () => {
  runner = await serve(YAML, { files: FILES, environment: SECRETS, runnerSecret: Buffer.from(DISPATCH_SECRET) });
  // Revision 2 of "annual" is promoted to Test only; Production keeps revision 1.
  const [annual] = runner.snapshots.current().sitesByHost.get(shop)!.site.workflows.filter((workflow) => workflow.name === "annual");
  await runner.store.database.transaction((tx) =>
    tx.run(
      "INSERT INTO revisions (workflow_id, number, content_hash, method, template, variable_bar, code, code_path, limits, anonymous, created_at) SELECT workflow_id, 2, 'second', method, template, variable_bar, code, code_path, limits, anonymous, created_at FROM revisions WHERE number = 1 AND workflow_id = (SELECT id FROM workflows WHERE name = ?)",
      [annual!.name],
    ),
  );
  await runner.store.promote({ site: "shop", workflow: "annual", environment: "Test", revision: 2 });
  await runner.snapshots.refresh();
  kong = await KongHarness.start(runner.port, { FLOWGATE_DATA_DIR: runner.dataDir, FLOWGATE_DISPATCH_SECRET: DISPATCH_SECRET, ...SECRETS });
}, 30_000);
afterAll(async () => {
  await kong?.stop();
  await runner?.close();
});

describe("the plugin as Kong loads it", () => {
  it("prints its info as clean JSON for Kong's _query_cmd, and nothing else on stdout", () => {
    const stdout = execFileSync(process.execPath, [PLUGIN_SERVER, "-d", PLUGIN_DIR, "--dump-all-plugins"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    expect(JSON.parse(stdout)).toEqual([
      {
        Name: "flowgate",
        Version: "0.1.0",
        Phases: ["access"],
        Priority: 1000,
        Schema: { name: "flowgate", fields: [{ config: { type: "record", fields: [expect.objectContaining({ poll_interval_ms: expect.objectContaining({ type: "integer", default: 1000 }) })] } }] },
      },
    ]);
  });

  it("answers GetPluginInfo over the socket", async () => {
    expect(await kong.pluginInfo()).toMatchObject({ Name: "flowgate", Phases: ["access"], Priority: 1000 });
  });
});

describe("the spec's scenarios through the plugin server and the runner", () => {
  it("routes a path variable and proxies to the runner with four PDK calls", async () => {
    const answer = await kong.handle({ method: "GET", host: shop, pathWithQuery: "/reports/revenue/annual/2024", headers: bearer(SECRETS.REPORTING_KEY) });
    expect(answer.proxied).toBe(true);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ year: "2024", user: "reporting", env: "Production", revision: 1 });
    expect(answer.pdkCalls).toEqual(["kong.request.get_method", "kong.request.get_path_with_query", "kong.request.get_headers", "kong.service.request.set_headers"]);
  });

  it("binds a query variable", async () => {
    const answer = await kong.handle({ method: "GET", host: shop, pathWithQuery: "/reports/revenue/?name=Q%201", headers: bearer(SECRETS.REPORTING_KEY) });
    expect(JSON.parse(answer.text)).toEqual({ reportName: "Q 1" });
  });

  it("answers no service, and an ambiguous match, with the spec's text, without proxying", async () => {
    for (const pathWithQuery of ["/nothing/here/at/all", "/customers/42/details"]) {
      const answer = await kong.handle({ method: "GET", host: shop, pathWithQuery });
      expect(answer).toMatchObject({ proxied: false, status: 404, text: "There is no service at this location." });
    }
    const unknownHost = await kong.handle({ method: "GET", host: "nobody.flowgate.localhost", pathWithQuery: "/" });
    expect(unknownHost).toMatchObject({ proxied: false, status: 404 });
  });

  it("runs _profile=Test against the revision promoted to Test", async () => {
    const answer = await kong.handle({ method: "GET", host: shop, pathWithQuery: "/reports/revenue/annual/2024?_profile=test", headers: bearer(SECRETS.TESTER_KEY) });
    expect(JSON.parse(answer.text)).toEqual({ year: "2024", user: "tester", env: "Test", revision: 2 });
    const wrongEnvironment = await kong.handle({ method: "GET", host: shop, pathWithQuery: "/reports/revenue/annual/2024", headers: bearer(SECRETS.TESTER_KEY) });
    expect(wrongEnvironment).toMatchObject({ proxied: false, status: 403 });
  });

  it("challenges a call without credentials, and accepts Basic credentials", async () => {
    const challenged = await kong.handle({ method: "GET", host: shop, pathWithQuery: "/reports/revenue/annual/2024" });
    expect(challenged).toMatchObject({ proxied: false, status: 401 });
    expect(challenged.headers["www-authenticate"]).toBe('Basic realm="shop", charset="UTF-8"');
    const basic = await kong.handle({
      method: "GET",
      host: shop,
      pathWithQuery: "/reports/revenue/annual/2024",
      headers: { authorization: `Basic ${Buffer.from(`alice:${SECRETS.ALICE_PASSWORD}`).toString("base64")}` },
    });
    expect(JSON.parse(basic.text)).toMatchObject({ user: "alice" });
    expect(basic.pdkCalls).toContain("kong.client.get_forwarded_ip");
  });

  it("issues a session token on the auth host and accepts it as ?auth=", async () => {
    const token = await kong.handle({ method: "GET", host: "auth.flowgate.localhost", pathWithQuery: `/users/alice/auth/?password=${SECRETS.ALICE_PASSWORD}` });
    expect(token).toMatchObject({ proxied: false, status: 200 });
    const guid = JSON.parse(token.text) as string;
    const answer = await kong.handle({ method: "GET", host: shop, pathWithQuery: `/reports/revenue/annual/2023?auth=${guid}` });
    expect(JSON.parse(answer.text)).toMatchObject({ year: "2023", user: "alice" });
  });

  it("passes a raw body through to the Workflow and its raw answer back", async () => {
    const answer = await kong.handle({ method: "POST", host: shop, pathWithQuery: "/soap/Quote.asmx", headers: { "content-type": "text/xml" }, body: Buffer.from("<Question>price?</Question>") });
    expect(answer).toMatchObject({ proxied: true, status: 200, text: "<Answer>price?</Answer>" });
    expect(answer.headers["content-type"]).toBe("text/xml; charset=utf-8");
  });

  it("refuses a body over the Workflow's limit before proxying it", async () => {
    const answer = await kong.handle({ method: "POST", host: shop, pathWithQuery: "/soap/Quote.asmx", headers: { "content-type": "text/xml", "content-length": "4096" }, body: Buffer.alloc(4096, 65) });
    expect(answer).toMatchObject({ proxied: false, status: 413 });
  });

  it("replaces a client's own dispatch record and drops its copies of Flowgate's headers", async () => {
    const answer = await kong.handle({
      method: "GET",
      host: shop,
      pathWithQuery: "/reports/revenue/annual/2024",
      headers: { ...bearer(SECRETS.REPORTING_KEY), "x-flowgate-dispatch": "forged.record", "x-flowgate-activity-id": "forged" },
    });
    expect(answer.status).toBe(200);
    expect(answer.pdkCalls).toContain("kong.service.request.clear_header");
  });
});

describe("failing closed", () => {
  it("ends the request with 500 when a PDK call fails, never proxying it", async () => {
    const answer = await kong.handle({ method: "GET", host: shop, pathWithQuery: "/reports/revenue/annual/2024", headers: bearer(SECRETS.REPORTING_KEY) }, { failing: ["kong.request.get_headers"] });
    expect(answer).toMatchObject({ proxied: false, status: 500 });
    expect(JSON.parse(answer.text)).toEqual({ error: "An unexpected error occurred.", activityId: expect.any(String) });
    expect(kong.output.text).toContain("simulated PDK failure");
  });

  it("ends every request with 500 when the plugin cannot start, never proxying one", async () => {
    const broken = await KongHarness.start(runner.port, { FLOWGATE_DATA_DIR: runner.dataDir, FLOWGATE_DISPATCH_SECRET: "too short" });
    try {
      const answer = await broken.handle({ method: "GET", host: shop, pathWithQuery: "/orders/1/details" });
      expect(answer).toMatchObject({ proxied: false, status: 500 });
      expect(broken.output.text).toContain("the dispatch secret (FLOWGATE_DISPATCH_SECRET) must be at least 32 bytes");
    } finally {
      await broken.stop();
    }
  });

  it("and the runner refuses a request that reached it without the plugin", async () => {
    const direct = await call(runner.port, { host: shop, path: "/orders/1/details" });
    expect(direct.status).toBe(403);
  });
});
