// The contract every authentication provider passes, built-in or added by a plugin author: give it a provider and
// requests of each kind, and it checks the answers the gateway relies on.

import { describe, expect, it } from "vitest";
import type { AuthContext, AuthProvider } from "../../../plugins/flowgate/auth/auth-provider";
import type { Principal } from "../../../plugins/flowgate/principal";

export interface ProviderFixture {
  readonly provider: AuthProvider;
  /** Credentials of the provider's kind that are right, and the principal they stand for. */
  readonly valid: AuthContext;
  readonly principal: Principal;
  /** Credentials of its kind that are wrong. */
  readonly wrong: AuthContext;
  /** Credentials of its kind that cannot even be read. */
  readonly malformed: AuthContext;
  /** Requests with no credentials, or only other kinds of credentials. */
  readonly foreign: readonly AuthContext[];
  /** Right credentials used where they give no permission, when the method has permissions. */
  readonly forbidden?: AuthContext;
  /** Secrets the fixtures contain, which no answer may repeat. */
  readonly secrets: readonly string[];
}

/** `permissions`: whether the method grants per-Site, -environment or -Workflow permissions of its own. */
export function providerContract(name: string, fixture: () => Promise<ProviderFixture>, { permissions = true } = {}): void {
  describe(`authentication provider contract: ${name}`, () => {
    it("has a method name and a description for 401 answers", async () => {
      const { provider } = await fixture();
      expect(provider.method).toMatch(/^[a-z][A-Za-z]*$/);
      expect(provider.describe.length).toBeGreaterThan(0);
    });

    it("answers right credentials with their principal", async () => {
      const { provider, valid, principal } = await fixture();
      expect(await provider.authenticate(valid)).toEqual({ kind: "principal", principal });
    });

    it("leaves requests without its kind of credentials to the other providers", async () => {
      const { provider, foreign } = await fixture();
      for (const context of foreign) expect(await provider.authenticate(context)).toEqual({ kind: "not-mine" });
    });

    it("answers wrong and malformed credentials as invalid, without throwing or repeating a secret", async () => {
      const { provider, wrong, malformed, secrets } = await fixture();
      for (const context of [wrong, malformed]) {
        const answer = await provider.authenticate(context);
        expect(answer.kind).toBe("invalid");
        for (const secret of secrets) expect(JSON.stringify(answer)).not.toContain(secret);
      }
    });

    // A method without permissions of its own (a partner signature, say) has no such case to answer.
    if (permissions) {
      it("answers right credentials without permission as forbidden", async () => {
        const { provider, forbidden, secrets } = await fixture();
        expect(forbidden).toBeDefined();
        const answer = await provider.authenticate(forbidden!);
        expect(answer.kind).toBe("forbidden");
        for (const secret of secrets) expect(JSON.stringify(answer)).not.toContain(secret);
      });
    }
  });
}
