import { describe, expect, it } from "vitest";
import { authenticator } from "../../../plugins/flowgate/auth/authenticate";
import type { AuthProvider, ProviderAnswer } from "../../../plugins/flowgate/auth/auth-provider";
import { facts, snapshotWith } from "./snapshot-fixture";
import type { Revision } from "../../../store/model";

const revision = (anonymous: boolean) => ({ workflow: "orders", anonymous }) as Revision;

function provider(method: string, answer: ProviderAnswer, challenge?: string): AuthProvider & { asked: number } {
  const made = {
    method,
    describe: `${method} credentials`,
    asked: 0,
    async authenticate() {
      made.asked++;
      return answer;
    },
    ...(challenge ? { challenge: () => challenge } : {}),
  };
  return made;
}

describe("authenticating a call", () => {
  const snapshot = snapshotWith();
  const site = snapshot.sitesByHost.get("acme.flowgate.localhost")!;

  it("lets an anonymous Workflow through without asking any provider", async () => {
    const key = provider("apiKey", { kind: "invalid", message: "no" });
    expect(await authenticator([key])(facts({ authorization: "Bearer x" }), site, "Production", revision(true))).toEqual({ kind: "principal", principal: { kind: "anonymous" } });
    expect(key.asked).toBe(0);
  });

  it("asks the Site's providers in turn until one recognises its credentials", async () => {
    const first = provider("apiKey", { kind: "not-mine" });
    const second = provider("basic", { kind: "principal", principal: { kind: "user", name: "alice" } });
    expect(await authenticator([first, second])(facts(), site, "Production", revision(false))).toEqual({ kind: "principal", principal: { kind: "user", name: "alice" } });
  });

  it("answers 401 with every accepted method and the Basic challenge when nothing recognises the request", async () => {
    const outcome = await authenticator([provider("apiKey", { kind: "not-mine" }), provider("basic", { kind: "not-mine" }, 'Basic realm="acme"')])(facts(), site, "Production", revision(false));
    expect(outcome).toEqual({
      kind: "deny",
      status: 401,
      message: "This Workflow needs credentials: apiKey credentials; or basic credentials.",
      headers: { "www-authenticate": 'Basic realm="acme"' },
    });
  });

  it("maps invalid to 401, forbidden to 403 and throttled to 429 with Retry-After", async () => {
    const run = (answer: ProviderAnswer) => authenticator([provider("apiKey", answer)])(facts(), site, "Production", revision(false));
    expect(await run({ kind: "invalid", message: "The API key is not valid." })).toMatchObject({ status: 401, message: "The API key is not valid." });
    expect(await run({ kind: "forbidden", message: "not this one" })).toMatchObject({ status: 403, message: "not this one" });
    expect(await run({ kind: "throttled", retryAfterSeconds: 7 })).toMatchObject({ status: 429, headers: { "retry-after": "7" } });
  });

  it("ignores providers of methods the Site does not accept", async () => {
    const other = provider("somethingElse", { kind: "principal", principal: { kind: "user", name: "eve" } });
    expect((await authenticator([other])(facts(), site, "Production", revision(false))).kind).toBe("deny");
    expect(other.asked).toBe(0);
  });
});
