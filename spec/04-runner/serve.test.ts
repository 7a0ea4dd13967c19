import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XMLValidator } from "fast-xml-parser";
import { serve } from "./serve-fixture";
import type { Served } from "./serve-fixture";
import { call } from "./http-client";

const YAML = `sites:
  - name: shop
    subdomain: shop
    allowedOrigins: ["https://app.shop.example"]
    environments: [Test]
    settings:
      Production: { backend: "https://prod.example" }
      Test: { backend: "https://test.example", token: { env: SHOP_TEST_TOKEN } }
    workflows:
      - { name: annual, method: GET, template: "/reports/revenue/annual/{year}", variableBar: { inputs: [year], outputs: [year, total] }, code: w/annual.js, anonymous: true }
      - { name: named, method: GET, template: "/reports/revenue/?name={reportName}", variableBar: { inputs: [reportName], outputs: [reportName] }, code: w/named.js, anonymous: true }
      - { name: create, method: POST, template: /orders, variableBar: { inputs: [customerId, quantity, FgProfile, FgWorkflowInstanceId], outputs: [orderId, quantity, env, activity] }, code: w/create.js, anonymous: true }
      - name: soap
        method: POST
        template: /soap/Quote.asmx
        variableBar: { inputs: [FgRequestBody, FgRequestContentType, FgRequestHeaders], outputs: [FgResponseBody, FgResponseContentType, FgResponseCode] }
        code: w/soap.js
        anonymous: true
      - { name: image, method: GET, template: "/images/{name}.png", variableBar: { inputs: [name], outputs: [FgResponseBody, FgResponseContentType, FgResponseHeaders] }, code: w/image.js, anonymous: true }
      - { name: echo, method: POST, template: /echo, variableBar: { inputs: [FgRequestBody], outputs: [FgResponseBody, FgResponseContentType] }, code: w/echo.js, anonymous: true, limits: { maxBodyBytes: 2048 } }
      - { name: slow, method: GET, template: /slow, code: w/slow.js, anonymous: true, limits: { timeoutMs: 300 } }
      - { name: broken, method: GET, template: /broken, code: w/broken.js, anonymous: true }
      - { name: bad-header, method: GET, template: /bad-header, variableBar: { outputs: [FgResponseHeaders] }, code: w/bad-header.js, anonymous: true }
      - { name: settings, method: GET, template: /settings, variableBar: { outputs: [settings] }, code: w/settings.js, anonymous: true }
      - { name: composite, method: GET, template: "/composite/{id}", variableBar: { inputs: [id], outputs: [inner] }, code: w/composite.js, anonymous: true }
      - { name: locked, method: GET, template: /locked, code: w/locked.js }
      - { name: fanout, method: GET, template: /fanout, code: w/fanout.js, anonymous: true }
      - { name: waits, method: GET, template: /waits, code: w/waits.js, anonymous: true }
      - { name: bigint, method: GET, template: /bigint, variableBar: { outputs: [big] }, code: w/bigint.js, anonymous: true }
`;

const FILES: Record<string, string> = {
  "w/annual.js": "export default ({ year }, context) => { context.log('annual report for', year); return { year, total: Number(year) * 10 }; };",
  "w/named.js": "export default ({ reportName }) => ({ reportName: reportName ?? null });",
  "w/create.js": "export default (inputs) => ({ orderId: 'ord-' + inputs.customerId, quantity: inputs.quantity, env: inputs.FgProfile, activity: inputs.FgWorkflowInstanceId, ignored: 'not an output' });",
  "w/soap.js": `export default ({ FgRequestBody, FgRequestContentType, FgRequestHeaders }, context) => {
    const envelope = context.xml.parse(FgRequestBody);
    const symbol = envelope["soap:Envelope"]["soap:Body"].GetQuote.Symbol;
    if (!symbol) return { FgResponseCode: 500, FgResponseContentType: "text/xml; charset=utf-8", FgResponseBody: "<Fault/>" };
    return {
      FgResponseCode: 200,
      FgResponseContentType: "text/xml; charset=utf-8",
      FgResponseBody: '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetQuoteResponse><Symbol>' + symbol + '</Symbol><Price>12.50</Price><Action>' + FgRequestHeaders.soapaction + '</Action><Type>' + FgRequestContentType + '</Type><Secret>' + (FgRequestHeaders.authorization ?? 'hidden') + '</Secret></GetQuoteResponse></soap:Body></soap:Envelope>',
    };
  };`,
  "w/image.js": `export default ({ name }) => ({
    FgResponseBody: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]),
    FgResponseContentType: "image/png",
    FgResponseHeaders: { "Cache-Control": "max-age=60", "Content-Disposition": 'inline; filename="' + name + '.png"', "Set-Cookie": ["a=1", "b=2"] },
  });`,
  "w/echo.js": "export default ({ FgRequestBody }) => ({ FgResponseBody: FgRequestBody ?? '', FgResponseContentType: typeof FgRequestBody === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream' });",
  "w/slow.js": "export default async (inputs, context) => { await context.http.request({ url: 'http://127.0.0.1:9/never' }).catch(() => null); while (true) { await new Promise((resolve) => resolve()); } };",
  "w/broken.js": "export default () => { throw new Error('database password is hunter2'); };",
  "w/bad-header.js": "export default () => ({ FgResponseHeaders: { 'X-Injected': 'a\\r\\nSet-Cookie: evil=1' } });",
  "w/settings.js": "export default (inputs, context) => ({ settings: { ...context.settings, environment: context.environment } });",
  "w/composite.js": "export default async ({ id }, context) => ({ inner: await context.callWorkflow('annual', { year: id, extra: 'dropped' }) });",
  "w/locked.js": "export default () => ({});",
  "w/fanout.js": "export default async (inputs, context) => { await Promise.all(Array.from({ length: 20 }, () => context.callWorkflow('waits', {}))); return {}; };",
  "w/bigint.js": "export default () => ({ big: 10n ** 30n });",
  "w/waits.js": "export default async (inputs, context) => { await context.http.request({ url: 'http://127.0.0.1:9/' }).catch(() => null); return {}; };",
};

let served: Served;
const host = "shop.flowgate.localhost";
beforeAll(async () => {
  served = await serve(YAML, { files: FILES, environment: { SHOP_TEST_TOKEN: "t0k3n" } });
});
afterAll(async () => served.close());

describe("flowgate serve: the spec's routing over real HTTP", () => {
  it("runs the Workflow bound to a path template, with the variable in its Variable Bar", async () => {
    const answer = await call(served.port, { host, path: "/reports/revenue/annual/2024" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.json()).toEqual({ year: "2024", total: 20240 });
    expect(answer.headers["x-flowgate-activity-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("binds a query variable, and leaves it unset when the parameter is missing", async () => {
    expect((await call(served.port, { host, path: "/reports/revenue/?name=Annual%20Revenue" })).json()).toEqual({ reportName: "Annual Revenue" });
    expect((await call(served.port, { host, path: "/reports/revenue" })).json()).toEqual({ reportName: null });
  });

  it("answers an unknown host or path with the spec's text, and a bad _profile with 400", async () => {
    for (const [where, path] of [["nobody.flowgate.localhost", "/reports/revenue"], [host, "/nothing/here"]] as const) {
      const answer = await call(served.port, { host: where, path });
      expect(answer.status).toBe(404);
      expect(answer.text).toBe("There is no service at this location.");
      expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    }
    const staging = await call(served.port, { host, path: "/reports/revenue?_profile=Staging" });
    expect(staging.status).toBe(400);
    expect(staging.json()).toMatchObject({ error: 'this Site has no environment "Staging" (_profile may name: Production, Test)' });
  });

  it("needs credentials for a Workflow that is not anonymous", async () => {
    const answer = await call(served.port, { host, path: "/locked" });
    expect(answer.status).toBe(401);
  });
});

describe("flowgate serve: payloads", () => {
  it("reads a JSON or form body as key:value pairs into declared inputs only, and answers with the declared outputs", async () => {
    const json = await call(served.port, { method: "POST", host, path: "/orders?_profile=test", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerId: 7, quantity: 3, FgProfile: "forged", other: 1 }) });
    expect(json.status).toBe(200);
    const body = json.json();
    expect(body).toEqual({ orderId: "ord-7", quantity: 3, env: "Test", activity: json.headers["x-flowgate-activity-id"] });
    const form = await call(served.port, { method: "POST", host, path: "/orders", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "constructor=x&__proto__=y&customerId=9&quantity=2" });
    expect(form.json()).toMatchObject({ orderId: "ord-9", quantity: "2", env: "Production" });
  });

  it("refuses a body it cannot read, saying why", async () => {
    const malformed = await call(served.port, { method: "POST", host, path: "/orders", headers: { "content-type": "application/json" }, body: "{ not json" });
    expect(malformed.status).toBe(400);
    expect(malformed.json().error).toMatch(/^The request body is not valid JSON: /);
    const list = await call(served.port, { method: "POST", host, path: "/orders", headers: { "content-type": "application/json" }, body: "[1, 2]" });
    expect(list.json().error).toBe("The request body must be a JSON object of key:value pairs.");
    const xml = await call(served.port, { method: "POST", host, path: "/orders", headers: { "content-type": "application/xml" }, body: "<a/>" });
    expect(xml.status).toBe(415);
    const latin = await call(served.port, { method: "POST", host, path: "/orders", headers: { "content-type": "application/json; charset=utf-8" }, body: Buffer.from([0x7b, 0xff, 0x7d]) });
    expect(latin.json().error).toBe("The request body is not valid utf-8.");
  });

  it("imitates a SOAP service: raw XML in, raw XML out with its content type and status", async () => {
    const envelope = '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetQuote><Symbol>FLOW</Symbol></GetQuote></soap:Body></soap:Envelope>';
    const answer = await call(served.port, {
      method: "POST",
      host,
      path: "/soap/Quote.asmx",
      headers: { "content-type": "text/xml; charset=utf-8", soapaction: '"urn:GetQuote"', authorization: "Basic c2VjcmV0" },
      body: envelope,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/xml; charset=utf-8");
    expect(XMLValidator.validate(answer.text)).toBe(true);
    expect(answer.text).toContain("<Symbol>FLOW</Symbol><Price>12.50</Price><Action>\"urn:GetQuote\"</Action><Type>text/xml; charset=utf-8</Type><Secret>hidden</Secret>");
  });

  it("returns an image byte for byte, with its headers and an exact Content-Length", async () => {
    const answer = await call(served.port, { host, path: "/images/logo.png" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("image/png");
    expect([...answer.body]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
    expect(answer.headers["content-length"]).toBe("10");
    expect(answer.headers["cache-control"]).toBe("max-age=60");
    expect(answer.headers["content-disposition"]).toBe('inline; filename="logo.png"');
    expect(answer.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    const head = await call(served.port, { method: "HEAD", host, path: "/images/logo.png" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe("10");
    expect(head.body.length).toBe(0);
  });

  it("passes a binary body in and out unchanged, and text as text", async () => {
    const bytes = Buffer.from(Array.from({ length: 2000 }, (_, index) => (index * 7) % 256));
    const binary = await call(served.port, { method: "POST", host, path: "/echo", headers: { "content-type": "application/octet-stream" }, body: bytes });
    expect(binary.headers["content-type"]).toBe("application/octet-stream");
    expect(binary.body.equals(bytes)).toBe(true);
    const text = await call(served.port, { method: "POST", host, path: "/echo", headers: { "content-type": "text/plain; charset=utf-8" }, body: "héllo" });
    expect(text.text).toBe("héllo");
  });

  it("refuses a body over the Workflow's limit with 413, whether announced or chunked", async () => {
    const big = Buffer.alloc(4096, 1);
    const announced = await call(served.port, { method: "POST", host, path: "/echo", headers: { "content-type": "application/octet-stream" }, body: big });
    expect(announced.status).toBe(413);
    expect(announced.json().error).toBe("The request body is larger than this Workflow's limit of 2048 bytes.");
    const chunked = await call(served.port, { method: "POST", host, path: "/echo", headers: { "content-type": "application/octet-stream" }, body: big, chunked: true });
    expect(chunked.status).toBe(413);
  });
});

describe("flowgate serve: failures, context and activity logs", () => {
  it("answers a failed Workflow with 500 and its activity id, never its error or stack", async () => {
    const answer = await call(served.port, { host, path: "/broken" });
    const activityId = answer.headers["x-flowgate-activity-id"] as string;
    expect(answer.status).toBe(500);
    expect(answer.json()).toEqual({ error: "The Workflow failed.", activityId });
    expect(answer.text).not.toContain("hunter2");
    const log = await served.logOf(activityId);
    expect(log.status).toBe(500);
    expect(log.error).toContain("Error: database password is hunter2");
  });

  it("answers a Workflow past its time limit with 504", async () => {
    const answer = await call(served.port, { host, path: "/slow" });
    expect(answer.status).toBe(504);
    expect(answer.json().error).toBe("The Workflow ran past its time limit.");
  });

  it("answers outputs that cannot be written as JSON with 500, and still finishes the activity log", async () => {
    const answer = await call(served.port, { host, path: "/bigint" });
    expect(answer.status).toBe(500);
    expect((await served.logOf(answer.headers["x-flowgate-activity-id"] as string)).error).toMatch(/^the Workflow's outputs cannot be sent: .*BigInt/);
  });

  it("refuses response headers that could split the response", async () => {
    const answer = await call(served.port, { host, path: "/bad-header" });
    expect(answer.status).toBe(500);
    expect(answer.headers["set-cookie"]).toBeUndefined();
    expect((await served.logOf(answer.headers["x-flowgate-activity-id"] as string)).error).toContain('FgResponseHeaders: the value of "X-Injected" must be text without line breaks');
  });

  it("gives each environment its own settings, reading secrets from the runner's environment", async () => {
    expect((await call(served.port, { host, path: "/settings" })).json()).toEqual({ settings: { backend: "https://prod.example", environment: "Production" } });
    expect((await call(served.port, { host, path: "/settings?_profile=Test" })).json()).toEqual({ settings: { backend: "https://test.example", token: "t0k3n", environment: "Test" } });
  });

  it("lets a Workflow call another of its Site, passing only declared inputs", async () => {
    expect((await call(served.port, { host, path: "/composite/2023" })).json()).toEqual({ inner: { year: "2023", total: 20230 } });
  });

  it("bounds how many calls to other Workflows one call may run at once", async () => {
    const answer = await call(served.port, { host, path: "/fanout" });
    expect(answer.status).toBe(500);
    expect((await served.logOf(answer.headers["x-flowgate-activity-id"] as string)).error).toContain("a call may have at most 8 calls to other Workflows running at once");
  });

  it("writes a Start Activity Log whose InitialisationXml names the environment used, and the finish", async () => {
    const answer = await call(served.port, { host, path: "/reports/revenue/annual/2025?_profile=TEST&auth=secret-token" });
    const activityId = answer.headers["x-flowgate-activity-id"] as string;
    const log = await served.logOf(activityId);
    expect(log).toMatchObject({ site: "shop", workflow: "annual", revision: 1, environment: "Test", method: "GET", status: 200, principal: null, error: null });
    expect(log.url).toBe("/reports/revenue/annual/2025?_profile=TEST&auth=[redacted]");
    expect(XMLValidator.validate(log.initialisationXml)).toBe(true);
    expect(log.initialisationXml).toContain("<Environment>Test</Environment>");
    expect(log.initialisationXml).toContain('<Workflow revision="1">annual</Workflow>');
    expect(log.initialisationXml).not.toContain("secret-token");
    expect(log.messages.map((message) => `${message.level}: ${message.text}`)).toEqual(["info: annual report for 2025"]);
    expect(log.durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe("flowgate serve: CORS from the Site's Allowed Origins", () => {
  it("answers a preflight without credentials, for an allowed origin only", async () => {
    const preflight = await call(served.port, {
      method: "OPTIONS",
      host,
      path: "/locked",
      headers: { origin: "https://app.shop.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers).toMatchObject({
      "access-control-allow-origin": "https://app.shop.example",
      "access-control-allow-credentials": "true",
      "access-control-allow-headers": "authorization",
      "access-control-max-age": "3600",
    });
    expect(preflight.headers["access-control-allow-methods"]).toContain("GET");
    const stranger = await call(served.port, { method: "OPTIONS", host, path: "/locked", headers: { origin: "https://evil.example", "access-control-request-method": "GET" } });
    expect(stranger.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("marks actual responses for an allowed origin and exposes the activity id", async () => {
    const answer = await call(served.port, { host, path: "/reports/revenue/annual/2024", headers: { origin: "https://app.shop.example" } });
    expect(answer.headers["access-control-allow-origin"]).toBe("https://app.shop.example");
    expect(answer.headers["access-control-expose-headers"]).toContain("x-flowgate-activity-id");
    expect(answer.headers.vary).toBe("Origin");
  });
});
