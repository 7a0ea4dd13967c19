import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "./serve-fixture";
import type { Served } from "./serve-fixture";
import { call } from "./http-client";
import { builtInAuthentication } from "../../plugins/flowgate/auth/built-in-authentication";

const YAML = `sites:
  - name: shop
    subdomain: shop
    environments: [Test]
    auth: [apiKey, basic, session]
    workflows:
      - { name: whoami, method: GET, template: /whoami, variableBar: { inputs: [FgUsername, FgProfile], outputs: [user, env] }, code: w/whoami.js }
      - { name: payroll, method: GET, template: /payroll, variableBar: { inputs: [FgUsername], outputs: [user] }, code: w/whoami.js }
  - name: keyonly
    subdomain: keyonly
    auth: [apiKey]
    workflows:
      - { name: whoami, method: GET, template: /whoami, variableBar: { inputs: [FgUsername], outputs: [user] }, code: w/whoami.js }
users:
  - { name: alice, password: { env: ALICE_PASSWORD }, sites: [shop] }
  - { name: bob, password: { env: BOB_PASSWORD }, sites: [keyonly] }
apiKeys:
  - { name: reporting, site: shop, environment: Production, workflows: [whoami], primary: { env: REPORTING_KEY } }
  - { name: tester, site: shop, environment: Test, workflows: "*", primary: { env: TESTER_KEY } }
  - { name: off, site: shop, disabled: true, primary: { env: OFF_KEY } }
`;

const SECRETS = { ALICE_PASSWORD: "alice-pw-1", BOB_PASSWORD: "bob-pw-2", REPORTING_KEY: "fg_reporting_key_123", TESTER_KEY: "fg_tester_key_456", OFF_KEY: "fg_off_key_789" };
const FILES = { "w/whoami.js": "export default ({ FgUsername, FgProfile }) => ({ user: FgUsername, env: FgProfile });" };
const shop = "shop.flowgate.localhost";
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });

let served: Served;
beforeAll(async () => {
  served = await serve(YAML, {
    files: FILES,
    environment: SECRETS,
    authentication: (snapshot, store) => builtInAuthentication(snapshot, store, { sessions: { revalidateMs: 100 } }),
  });
});
afterAll(async () => served.close());

const get = (path: string, headers: Record<string, string> = {}, host = shop) => call(served.port, { host, path, headers });

describe("authentication through flowgate serve", () => {
  it("answers a call without credentials with 401 and a Basic challenge, so browsers show their dialog", async () => {
    const answer = await get("/whoami");
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe('Basic realm="shop", charset="UTF-8"');
    expect(answer.json().error).toBe("This Workflow needs credentials: an API key (Authorization: Bearer <key>); or a user name and password (Authorization: Basic ...); or a session token (?auth=<token>).");
    const keyOnly = await get("/whoami", {}, "keyonly.flowgate.localhost");
    expect(keyOnly.status).toBe(401);
    expect(keyOnly.headers["www-authenticate"]).toBeUndefined();
  });

  it("accepts an API key as Bearer, as Key= and as ?auth-key=, naming it in FgUsername and the activity log", async () => {
    for (const [path, headers] of [
      ["/whoami", { authorization: `Bearer ${SECRETS.REPORTING_KEY}` }],
      ["/whoami", { authorization: `Key=${SECRETS.REPORTING_KEY}` }],
      [`/whoami?auth-key=${SECRETS.REPORTING_KEY}`, {}],
    ] as const) {
      const answer = await get(path, headers);
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({ user: "reporting", env: "Production" });
    }
    const answer = await get(`/whoami?auth-key=${SECRETS.REPORTING_KEY}`);
    const log = await served.logOf(answer.headers["x-flowgate-activity-id"] as string);
    expect(log.principal).toBe("Token-based Key: reporting");
    expect(log.initialisationXml).toContain("<User>Token-based Key: reporting</User>");
    expect(JSON.stringify(log)).not.toContain(SECRETS.REPORTING_KEY);
    expect(log.url).toBe("/whoami?auth-key=[redacted]");
  });

  it("refuses wrong and disabled keys with 401, and keys without permission with 403", async () => {
    expect((await get("/whoami", { authorization: "Bearer fg_guess" })).status).toBe(401);
    const disabled = await get("/whoami", { authorization: `Bearer ${SECRETS.OFF_KEY}` });
    expect(disabled.status).toBe(401);
    expect(disabled.json().error).toBe("The API key is not valid.");
    const otherWorkflow = await get("/payroll", { authorization: `Bearer ${SECRETS.REPORTING_KEY}` });
    expect(otherWorkflow.status).toBe(403);
    expect(otherWorkflow.json().error).toBe("This API key may not call the Workflow payroll.");
    const otherEnvironment = await get("/whoami", { authorization: `Bearer ${SECRETS.TESTER_KEY}` });
    expect(otherEnvironment.status).toBe(403);
    expect((await get("/whoami?_profile=Test", { authorization: `Bearer ${SECRETS.TESTER_KEY}` })).json()).toEqual({ user: "tester", env: "Test" });
    expect((await get("/whoami", { authorization: `Bearer ${SECRETS.REPORTING_KEY}` }, "keyonly.flowgate.localhost")).status).toBe(401);
  });

  it("accepts legacy Basic credentials, refusing a wrong password and a user of another Site", async () => {
    expect((await get("/whoami", basic("alice", SECRETS.ALICE_PASSWORD))).json()).toEqual({ user: "alice", env: "Production" });
    const wrong = await get("/whoami", basic("alice", "nope"), shop);
    expect(wrong.status).toBe(401);
    expect(wrong.json().error).toBe("The user name or password is not correct.");
    const unknown = await get("/whoami", basic("mallory", "nope"));
    expect(unknown.json().error).toBe(wrong.json().error);
    const elsewhere = await get("/whoami", basic("bob", SECRETS.BOB_PASSWORD));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.json().error).toBe("User bob may not call this Site.");
  });

  it("issues a session token for a correct password only, and accepts it as ?auth= until it is revoked", async () => {
    const token = await get(`/users/alice/auth/?password=${SECRETS.ALICE_PASSWORD}`, {}, "auth.flowgate.localhost");
    expect(token.status).toBe(200);
    expect(token.headers["content-type"]).toBe("application/json; charset=utf-8");
    const guid = token.json<string>();
    expect(guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const za = await get(`/users/alice/auth?password=${SECRETS.ALICE_PASSWORD}`, {}, "auth.za.flowgate.localhost");
    expect(za.status).toBe(200);

    const wrong = await get("/users/alice/auth/?password=nope", {}, "auth.flowgate.localhost");
    const unknown = await get("/users/mallory/auth/?password=nope", {}, "auth.flowgate.localhost");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.json().error).toBe(wrong.json().error);
    expect((await get("/users/alice/auth/", {}, "auth.flowgate.localhost")).status).toBe(400);

    const answer = await get(`/whoami?auth=${guid}`);
    expect(answer.json()).toEqual({ user: "alice", env: "Production" });
    const log = await served.logOf(answer.headers["x-flowgate-activity-id"] as string);
    expect(log.url).toBe("/whoami?auth=[redacted]");
    expect(log.initialisationXml).not.toContain(guid);

    expect(await served.store.revokeSessions("alice")).toBe(2);
    await expect.poll(async () => (await get(`/whoami?auth=${guid}`)).status, { timeout: 3000, interval: 50 }).toBe(401);
    expect((await get("/whoami?auth=00000000-0000-0000-0000-000000000000")).json().error).toBe("The session token is not valid or has expired.");
  });

  it("throttles a flood of bad attempts with 429 and Retry-After", async () => {
    const answers = [];
    for (let attempt = 0; attempt < 8; attempt++) answers.push(await get("/whoami", basic("bob", `guess-${attempt}`)));
    const throttled = answers.filter((answer) => answer.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(Number(throttled[0]!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(answers.slice(0, 5).every((answer) => answer.status === 401)).toBe(true);
  });

  it("sees a key made, then disabled, on the command line within seconds", async () => {
    const token = await served.store.createApiKey({ site: "shop", name: "ops", environment: "Production", workflows: "*" });
    await expect.poll(async () => (await get("/payroll", { authorization: `Bearer ${token}` })).status, { timeout: 3000, interval: 50 }).toBe(200);
    await served.store.changeApiKey("shop", "ops", "disable");
    await expect.poll(async () => (await get("/payroll", { authorization: `Bearer ${token}` })).status, { timeout: 3000, interval: 50 }).toBe(401);
  });

  it("lets a rotated key's previous secret work until it is retired", async () => {
    const first = await served.store.createApiKey({ site: "shop", name: "rotating", environment: "Production", workflows: "*" });
    const second = (await served.store.changeApiKey("shop", "rotating", "rotate"))!;
    await expect.poll(async () => (await get("/payroll", { authorization: `Bearer ${second}` })).status, { timeout: 3000, interval: 50 }).toBe(200);
    expect((await get("/payroll", { authorization: `Bearer ${first}` })).status).toBe(200);
    await served.store.changeApiKey("shop", "rotating", "retire-secondary");
    await expect.poll(async () => (await get("/payroll", { authorization: `Bearer ${first}` })).status, { timeout: 3000, interval: 50 }).toBe(401);
    expect((await get("/payroll", { authorization: `Bearer ${second}` })).status).toBe(200);
  });
});
