import { describe, expect, it } from "vitest";
import { XMLValidator } from "fast-xml-parser";
import { buildResponse } from "../../runner/respond";
import { initialisationXml } from "../../runner/activity-log/initialisation-xml";
import { specialProperties } from "../../plugins/flowgate/variable-bar";

const special = specialProperties();
const raw = { inputs: [], outputs: ["FgResponseBody", "FgResponseContentType", "FgResponseCode", "FgResponseHeaders"] };

describe("outputs to an HTTP response", () => {
  it("answers the declared outputs as JSON by default: missing ones null, bytes as base64, others dropped", () => {
    const result = buildResponse({ inputs: [], outputs: ["a", "b", "c"] }, special, { a: 1, c: new Uint8Array([1, 2, 3]), extra: "no" });
    expect(result.ok && result.response.body.toString()).toBe('{"a":1,"b":null,"c":"AQID"}');
    expect(result.ok && result.response.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("sends a raw body with its content type, status and headers, and no body for 204", () => {
    const result = buildResponse(raw, special, { FgResponseBody: "<a/>", FgResponseContentType: "application/xml", FgResponseCode: 201, FgResponseHeaders: { Location: "/orders/1", "X-Count": 3 } });
    expect(result).toEqual({ ok: true, response: { status: 201, headers: { location: "/orders/1", "x-count": "3", "content-type": "application/xml" }, body: Buffer.from("<a/>") } });
    const empty = buildResponse(raw, special, { FgResponseBody: "ignored", FgResponseCode: 204 });
    expect(empty.ok && empty.response.body.length).toBe(0);
  });

  it("refuses what would make a broken or dangerous response", () => {
    const refusals = [
      [{ FgResponseCode: 99 }, "FgResponseCode must be a whole number from 200 to 599, not 99"],
      [{ FgResponseCode: "200" }, 'FgResponseCode must be a whole number from 200 to 599, not "200"'],
      [{ FgResponseHeaders: { "Transfer-Encoding": "chunked" } }, 'FgResponseHeaders: "Transfer-Encoding" is set by the server, not by a Workflow'],
      [{ FgResponseHeaders: { Connection: "close" } }, 'FgResponseHeaders: "Connection" is set by the server, not by a Workflow'],
      [{ FgResponseHeaders: { "Content-Length": "1" } }, 'FgResponseHeaders: "Content-Length" is set by the server, not by a Workflow'],
      [{ FgResponseHeaders: { "X-Flowgate-Activity-Id": "forged" } }, 'FgResponseHeaders: "X-Flowgate-Activity-Id" is set by the server, not by a Workflow'],
      [{ FgResponseHeaders: { "Bad Name": "x" } }, 'FgResponseHeaders: "Bad Name" is not a valid header name'],
      [{ FgResponseHeaders: { "X-A": "a\nb" } }, 'FgResponseHeaders: the value of "X-A" must be text without line breaks'],
      [{ FgResponseBody: { not: "bytes" } }, "FgResponseBody must be text or bytes (a string, Uint8Array or ArrayBuffer)"],
      [{ FgResponseBody: "x", FgResponseContentType: "text/plain\r\nX: y" }, "FgResponseContentType must be a string without line breaks"],
    ] as const;
    for (const [outputs, message] of refusals) expect(buildResponse(raw, special, outputs)).toEqual({ ok: false, message });
    expect(buildResponse(raw, special, [1, 2])).toEqual({ ok: false, message: "the Workflow must return an object of Variable Bar outputs" });
  });
});

describe("InitialisationXml", () => {
  it("is well-formed whatever the names and URL hold, and names the environment", () => {
    const xml = initialisationXml({
      activityId: "a-1",
      site: "acme & <co>",
      environment: "Test",
      workflow: 'quote "special"',
      revision: 3,
      method: "GET",
      url: "/x?q=<script>&n=\u0001",
      user: "Token-based Key: reporting",
      startedAt: Date.parse("2026-11-21T10:00:00Z"),
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<Initialisation>",
        "  <ActivityId>a-1</ActivityId>",
        "  <Site>acme &amp; &lt;co&gt;</Site>",
        "  <Environment>Test</Environment>",
        '  <Workflow revision="3">quote &quot;special&quot;</Workflow>',
        '  <Request method="GET">/x?q=&lt;script&gt;&amp;n=\uFFFD</Request>',
        "  <User>Token-based Key: reporting</User>",
        "  <StartedAt>2026-11-21T10:00:00.000Z</StartedAt>",
        "</Initialisation>",
      ].join("\n"),
    );
  });
});
