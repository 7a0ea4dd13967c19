import { afterAll, beforeAll, describe, it } from "vitest";
import { dnsContract } from "./dns-contract";
import { KnotServer, knotAvailability } from "./knot-server";
import type { KnotAvailability } from "./knot-server";
import { wildcardProvider } from "../../dns/wildcard/wildcard-provider";
import { rfc2136Provider } from "../../dns/rfc2136/rfc2136-provider";

const ZONE = "test.flowgate.example";

dnsContract("wildcard", async () => ({ provider: wildcardProvider(async () => true), host: (label) => `${label}.${ZONE}` }), { makesRecords: false });

const availability: KnotAvailability = knotAvailability();
let knot: KnotServer | undefined;
beforeAll(async () => {
  if (availability.available) knot = await KnotServer.start([ZONE]);
}, 20_000);
afterAll(async () => knot?.stop());

if (availability.available) {
  dnsContract(
    "rfc2136 against Knot DNS",
    async () => {
      const settings = (secret: string) => ({
        server: { host: "127.0.0.1", port: knot!.port },
        key: { name: knot!.keyName, algorithm: "hmac-sha256" as const, secret: Buffer.from(secret, "base64") },
        target: { type: "A" as const, value: "203.0.113.10" },
        ttl: 60,
        zones: [ZONE],
      });
      return {
        provider: rfc2136Provider(settings(knot!.secret), async () => false),
        failing: rfc2136Provider(settings(Buffer.from("not the key").toString("base64")), async () => false),
        host: (label: string) => `${label}.${ZONE}`,
      };
    },
    { makesRecords: true },
  );
} else {
  describe("DNS provider contract: rfc2136 against Knot DNS", () => {
    it.skip(`skipped: ${availability.reason}`, () => undefined);
  });
}
