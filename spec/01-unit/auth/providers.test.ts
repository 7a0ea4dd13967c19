import { describe, expect, it } from "vitest";
import { providerContract } from "./provider-contract";
import { basic, contextFor, facts, snapshotWith } from "./snapshot-fixture";
import { exampleHmacProvider, signRequest } from "./example-hmac-provider";
import { apiKeyProvider, presentedApiKey } from "../../../plugins/flowgate/auth/api-key/api-key-provider";
import { basicCredentials, basicProvider } from "../../../plugins/flowgate/auth/basic/basic-provider";
import { sessionProvider } from "../../../plugins/flowgate/auth/session/session-provider";
import { SessionCache } from "../../../plugins/flowgate/auth/session/sessions";
import type { SessionRecord } from "../../../plugins/flowgate/auth/session/sessions";
import { PasswordCheck } from "../../../plugins/flowgate/auth/password-check";
import { hashApiKey, hashPassword } from "../../../plugins/flowgate/auth/secret-hash";
import type { ApiKey } from "../../../store/model";

const KEY = "fg_correct-key-0123456789";
const OLD_KEY = "fg_previous-key-0123456789";
const PASSWORD = "correct horse battery";
const TOKEN = "5b3f6c1e-4d1f-4d6a-9d7e-2f0a8c1b9e44";

const key = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  site: "acme",
  name: "reporting",
  environment: "Production",
  workflows: ["orders"],
  disabled: false,
  primaryHash: hashApiKey(KEY),
  secondaryHash: hashApiKey(OLD_KEY),
  source: "cli",
  ...overrides,
});

let passwordHash: Promise<string> | null = null;
const users = async () => [
  { name: "alice", passwordHash: await (passwordHash ??= hashPassword(PASSWORD)), sites: ["acme"] },
  { name: "bob", passwordHash: await passwordHash!, sites: "*" as const },
];

providerContract("apiKey", async () => {
  const snapshot = snapshotWith({ apiKeys: [key()] });
  const provider = apiKeyProvider(() => snapshot);
  return {
    provider,
    valid: contextFor(snapshot, facts({ authorization: `Bearer ${KEY}` })),
    principal: { kind: "apiKey", name: "reporting" },
    wrong: contextFor(snapshot, facts({ authorization: "Bearer fg_wrong" })),
    malformed: contextFor(snapshot, facts({ authorization: "Bearer" })),
    foreign: [contextFor(snapshot, facts()), contextFor(snapshot, facts(basic("alice", PASSWORD))), contextFor(snapshot, facts({}, `auth=${TOKEN}`))],
    forbidden: contextFor(snapshot, facts({ authorization: `Bearer ${KEY}` }), { workflow: "payroll" }),
    secrets: [KEY],
  };
});

providerContract("basic", async () => {
  const snapshot = snapshotWith({ users: await users() });
  const provider = basicProvider(() => snapshot, new PasswordCheck());
  return {
    provider,
    valid: contextFor(snapshot, facts(basic("alice", PASSWORD))),
    principal: { kind: "user", name: "alice" },
    wrong: contextFor(snapshot, facts(basic("alice", "wrong password"))),
    malformed: contextFor(snapshot, facts({ authorization: "Basic !!!not-base64" })),
    foreign: [contextFor(snapshot, facts()), contextFor(snapshot, facts({ authorization: `Bearer ${KEY}` })), contextFor(snapshot, facts({}, `auth=${TOKEN}`))],
    forbidden: contextFor(snapshot, facts(basic("alice", PASSWORD)), { site: "globex" }),
    secrets: [PASSWORD, "wrong password"],
  };
});

function sessionStore(sessions: SessionRecord[]) {
  return {
    touched: [] as string[],
    async createSession() {},
    async findSession(tokenHash: string) {
      return sessions.find((session) => session.tokenHash === tokenHash) ?? null;
    },
    async touchSession(tokenHash: string) {
      this.touched.push(tokenHash);
    },
  };
}

const NOW = 1_800_000_000_000;
const session = (overrides: Partial<SessionRecord> = {}): SessionRecord => ({ tokenHash: hashApiKey(TOKEN), user: "alice", createdAt: NOW - 1000, lastUsedAt: NOW - 1000, expiresAt: NOW + 3_600_000, revokedAt: null, ...overrides });

providerContract("session", async () => {
  const snapshot = snapshotWith({ users: await users() });
  const provider = sessionProvider(() => snapshot, new SessionCache(sessionStore([session()]), { now: () => NOW }), () => NOW);
  return {
    provider,
    valid: contextFor(snapshot, facts({}, `auth=${TOKEN}`)),
    principal: { kind: "user", name: "alice" },
    wrong: contextFor(snapshot, facts({}, "auth=00000000-0000-0000-0000-000000000000")),
    malformed: contextFor(snapshot, facts({}, "auth=")),
    foreign: [contextFor(snapshot, facts()), contextFor(snapshot, facts({ authorization: `Bearer ${KEY}` }, "name=x"))],
    forbidden: contextFor(snapshot, facts({}, `auth=${TOKEN}`), { site: "globex" }),
    secrets: [TOKEN],
  };
});

providerContract("example: HMAC-signed requests", async () => {
  const snapshot = snapshotWith();
  const provider = exampleHmacProvider({ partner: "shared-secret-of-partner" });
  return {
    provider,
    valid: contextFor(snapshot, facts(signRequest("partner", "shared-secret-of-partner", "acme"))),
    principal: { kind: "apiKey", name: "partner" },
    wrong: contextFor(snapshot, facts(signRequest("partner", "another-secret", "acme"))),
    malformed: contextFor(snapshot, facts({ "x-signature": "partner:" })),
    foreign: [contextFor(snapshot, facts()), contextFor(snapshot, facts({ authorization: `Bearer ${KEY}` }))],
    secrets: ["shared-secret-of-partner"],
  };
}, { permissions: false });

describe("API keys", () => {
  const snapshot = snapshotWith({ apiKeys: [key(), key({ name: "off", primaryHash: hashApiKey("fg_off"), secondaryHash: null, disabled: true })] });
  const provider = apiKeyProvider(() => snapshot);

  it("are read from Bearer, Key= and ?auth-key=, in that order", () => {
    expect(presentedApiKey({ authorization: "Bearer abc" }, "auth-key=def")).toBe("abc");
    expect(presentedApiKey({ authorization: "Key=abc" }, "")).toBe("abc");
    expect(presentedApiKey({}, "x=1&auth-key=def")).toBe("def");
    expect(presentedApiKey({ authorization: "Basic abc" }, "")).toBeNull();
    expect(presentedApiKey({ authorization: "Bearer" }, "")).toBe("");
    expect(presentedApiKey({ authorization: "Bearer a b" }, "")).toBe("");
  });

  it("accept the secondary token during a rotation", async () => {
    expect((await provider.authenticate(contextFor(snapshot, facts({ authorization: `Key=${OLD_KEY}` })))).kind).toBe("principal");
  });

  it("refuse a disabled key, or another Site's, exactly as an unknown one", async () => {
    const unknown = await provider.authenticate(contextFor(snapshot, facts({ authorization: "Bearer fg_nobody" })));
    expect(await provider.authenticate(contextFor(snapshot, facts({ authorization: "Bearer fg_off" })))).toEqual(unknown);
    expect(await provider.authenticate(contextFor(snapshot, facts({ authorization: `Bearer ${KEY}` }), { site: "globex" }))).toEqual(unknown);
    expect(unknown).toEqual({ kind: "invalid", message: "The API key is not valid." });
  });

  it("are refused in another environment, saying which they target", async () => {
    expect(await provider.authenticate(contextFor(snapshot, facts({ authorization: `Bearer ${KEY}` }), { environment: "Test" }))).toEqual({
      kind: "forbidden",
      message: "This API key is for the Production environment, not Test.",
    });
  });
});

describe("Basic credentials", () => {
  it("are decoded, and refused when malformed", () => {
    expect(basicCredentials(`Basic ${Buffer.from("alice:pa:ss").toString("base64")}`)).toEqual({ username: "alice", password: "pa:ss" });
    expect(basicCredentials("Basic bm9jb2xvbg==")).toBe("malformed");
    expect(basicCredentials("Basic")).toBe("malformed");
    expect(basicCredentials(undefined)).toBe("absent");
  });

  it("answer an unknown user exactly as a wrong password", async () => {
    const snapshot = snapshotWith({ users: await users() });
    const provider = basicProvider(() => snapshot, new PasswordCheck());
    const unknown = await provider.authenticate(contextFor(snapshot, facts(basic("mallory", PASSWORD))));
    const wrong = await provider.authenticate(contextFor(snapshot, facts(basic("alice", "nope"))));
    expect(unknown).toEqual(wrong);
  });
});

describe("session tokens", () => {
  it("expire when idle, at their absolute end, and when revoked", async () => {
    const snapshot = snapshotWith({ users: await users() });
    for (const stale of [session({ lastUsedAt: NOW - 31 * 60_000 }), session({ expiresAt: NOW - 1 }), session({ revokedAt: NOW - 5 })]) {
      const provider = sessionProvider(() => snapshot, new SessionCache(sessionStore([stale]), { now: () => NOW }), () => NOW);
      expect(await provider.authenticate(contextFor(snapshot, facts({}, `auth=${TOKEN}`)))).toEqual({ kind: "invalid", message: "The session token is not valid or has expired." });
    }
  });

  it("ask the store at most once per revalidation period, and write last use back rarely", async () => {
    const snapshot = snapshotWith({ users: await users() });
    let now = NOW;
    let lookups = 0;
    const store = sessionStore([session({ lastUsedAt: NOW - 120_000 })]);
    const counting = { ...store, findSession: async (hash: string) => (lookups++, store.findSession(hash)) };
    const cache = new SessionCache(counting, { now: () => now, revalidateMs: 5000 });
    const provider = sessionProvider(() => snapshot, cache, () => now);
    for (let call = 0; call < 10; call++) expect((await provider.authenticate(contextFor(snapshot, facts({}, `auth=${TOKEN}`)))).kind).toBe("principal");
    expect(lookups).toBe(1);
    expect(store.touched).toHaveLength(1);
    now += 6000;
    await provider.authenticate(contextFor(snapshot, facts({}, `auth=${TOKEN}`)));
    expect(lookups).toBe(2);
  });
});
