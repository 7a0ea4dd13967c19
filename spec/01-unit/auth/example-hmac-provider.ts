// An example provider of the kind a plugin author adds: partners sign each request with a shared secret. Shipped in
// the tests to show that a new method passes the same contract as the built-in ones (docs/authentication.md).

import { createHmac, timingSafeEqual } from "node:crypto";
import type { AuthProvider } from "../../../plugins/flowgate/auth/auth-provider";

/** `x-signature: <partner>:<hex HMAC-SHA256 of the Site's name under the partner's secret>`, a deliberately small scheme. */
export function signRequest(partner: string, secret: string, site: string): Record<string, string> {
  return { "x-signature": `${partner}:${createHmac("sha256", secret).update(site).digest("hex")}` };
}

export function exampleHmacProvider(secrets: Readonly<Record<string, string>>): AuthProvider {
  return {
    method: "hmac",
    describe: "a request signature (X-Signature: <partner>:<signature>)",
    async authenticate({ request, site }) {
      const header = request.headers["x-signature"];
      if (header === undefined) return { kind: "not-mine" };
      const [partner, signature] = header.split(":");
      const secret = partner ? secrets[partner] : undefined;
      if (!partner || !signature || !/^[0-9a-f]{64}$/.test(signature) || !secret) return { kind: "invalid", message: "The request signature is not valid." };
      const expected = createHmac("sha256", secret).update(site.site.name).digest();
      if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return { kind: "invalid", message: "The request signature is not valid." };
      return { kind: "principal", principal: { kind: "apiKey", name: partner } };
    },
  };
}
