import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "./serve-fixture";
import type { Served } from "./serve-fixture";
import { call } from "./http-client";
import { decide } from "../../plugins/flowgate/decide";
import { authenticator } from "../../plugins/flowgate/auth/authenticate";
import { DISPATCH_HEADER, signDispatch } from "../../plugins/flowgate/dispatch-record";
import type { DispatchRecord } from "../../plugins/flowgate/dispatch-record";

const YAML = `sites:
  - name: shop
    subdomain: shop
    workflows:
      - { name: order, method: GET, template: "/orders/{id}", variableBar: { inputs: [id, FgUsername], outputs: [id, who] }, code: w/order.js, anonymous: true }
  - name: other
    subdomain: other
    workflows:
      - { name: order, method: GET, template: "/orders/{id}", variableBar: { inputs: [id], outputs: [id] }, code: w/order.js, anonymous: true }
`;
const FILES = { "w/order.js": "export default ({ id, FgUsername }) => ({ id, who: FgUsername ?? null });" };

const secret = randomBytes(32);
let runner: Served;
beforeAll(async () => {
  runner = await serve(YAML, { files: FILES, runnerSecret: secret });
});
afterAll(async () => runner.close());

/** What the gateway would forward for `path` on `host`: the record it signs for that request. */
async function recordFor(host: string, path: string): Promise<DispatchRecord> {
  const [rawPath, query = ""] = path.split("?");
  const decision = await decide(runner.snapshots.current(), { method: "GET", host, path: rawPath!, query, headers: {}, clientAddress: "127.0.0.1" }, { authenticate: authenticator([]) });
  if (decision.kind !== "dispatch") throw new Error(`the gateway would not dispatch ${host}${path}`);
  return decision.record;
}

function forward(host: string, path: string, header: string | undefined) {
  return call(runner.port, { host, path, headers: header === undefined ? {} : { [DISPATCH_HEADER]: header } });
}

describe("the runner behind Kong trusts only the gateway's signed dispatch record", () => {
  it("runs a Workflow for a valid record, with the record's principal and variables", async () => {
    const record = { ...(await recordFor("shop.flowgate.localhost", "/orders/7")), principal: { kind: "apiKey" as const, name: "reporting" } };
    const answer = await forward("shop.flowgate.localhost", "/orders/7", signDispatch(record, secret));
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ id: "7", who: "reporting" });
    expect(answer.headers["x-flowgate-activity-id"]).toBe(record.activityId);
    expect((await runner.logOf(record.activityId)).principal).toBe("Token-based Key: reporting");
  });

  it("refuses a direct call with no record", async () => {
    const answer = await forward("shop.flowgate.localhost", "/orders/7", undefined);
    expect(answer.status).toBe(403);
    expect(answer.json().error).toBe("This endpoint serves only requests forwarded by the Flowgate gateway.");
  });

  it("refuses a forged record: signed with another secret, or altered after signing", async () => {
    const record = await recordFor("shop.flowgate.localhost", "/orders/7");
    expect((await forward("shop.flowgate.localhost", "/orders/7", signDispatch(record, randomBytes(32)))).status).toBe(403);
    const [, signature] = signDispatch(record, secret).split(".");
    const altered = Buffer.from(JSON.stringify({ ...record, variables: { id: "8" } })).toString("base64url");
    expect((await forward("shop.flowgate.localhost", "/orders/7", `${altered}.${signature}`)).status).toBe(403);
    expect((await forward("shop.flowgate.localhost", "/orders/7", "not-a-record")).status).toBe(403);
  });

  it("refuses an expired record, and a record used once already", async () => {
    const record = await recordFor("shop.flowgate.localhost", "/orders/7");
    expect((await forward("shop.flowgate.localhost", "/orders/7", signDispatch({ ...record, expiresAt: Date.now() - 1 }, secret))).status).toBe(403);
    const fresh = await recordFor("shop.flowgate.localhost", "/orders/7");
    const header = signDispatch(fresh, secret);
    expect((await forward("shop.flowgate.localhost", "/orders/7", header)).status).toBe(200);
    expect((await forward("shop.flowgate.localhost", "/orders/7", header)).status).toBe(403);
    expect(runner.warnings.some((warning) => warning.includes("the dispatch record was used already"))).toBe(true);
  });

  it("refuses a record for another Site, or for another request", async () => {
    const record = await recordFor("shop.flowgate.localhost", "/orders/7");
    expect((await forward("other.flowgate.localhost", "/orders/7", signDispatch(record, secret))).status).toBe(403);
    const again = await recordFor("shop.flowgate.localhost", "/orders/7");
    expect((await forward("shop.flowgate.localhost", "/orders/8", signDispatch(again, secret))).status).toBe(403);
    const withQuery = await recordFor("shop.flowgate.localhost", "/orders/7");
    expect((await forward("shop.flowgate.localhost", "/orders/7?_profile=Test", signDispatch(withQuery, secret))).status).toBe(403);
  });
});
