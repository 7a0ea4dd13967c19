// The contract every DNS provider passes: the wildcard default, RFC 2136 and any provider added later.

import { describe, expect, it } from "vitest";
import type { DnsProvider } from "../../dns/dns-provider";
import { DnsFailure } from "../../dns/dns-provider";

export interface DnsFixture {
  readonly provider: DnsProvider;
  /** A provider that fails on every change (a wrong key, a server that refuses), when the provider can fail. */
  readonly failing?: DnsProvider;
  /** Names under the provider's zones. */
  readonly host: (label: string) => string;
}

/** `makesRecords`: whether the provider creates records (and so can lose them), or names resolve without it. */
export function dnsContract(name: string, fixture: () => Promise<DnsFixture>, { makesRecords }: { makesRecords: boolean }): void {
  describe(`DNS provider contract: ${name}`, () => {
    it("publishes a Site's name, and may be asked again", async () => {
      const { provider, host } = await fixture();
      const change = { kind: "publish" as const, site: "acme", host: host("acme"), previous: null };
      await provider.apply([change]);
      await provider.apply([change]);
      expect(["resolving", "pending-resolution"]).toContain((await provider.state(host("acme"))).kind);
      await provider.apply([]);
    });

    it("follows a rename and a removal", async () => {
      const { provider, host } = await fixture();
      await provider.apply([{ kind: "publish", site: "shop", host: host("shop"), previous: null }]);
      await provider.apply([{ kind: "publish", site: "shop", host: host("store"), previous: host("shop") }]);
      expect(["resolving", "pending-resolution"]).toContain((await provider.state(host("store"))).kind);
      if (makesRecords) expect((await provider.state(host("shop"))).kind).toBe("missing");
      await provider.apply([{ kind: "remove", site: "shop", host: host("store") }]);
      if (makesRecords) expect((await provider.state(host("store"))).kind).toBe("missing");
    });

    if (makesRecords) {
      it("says which change failed and which were made before it", async () => {
        const { failing, host } = await fixture();
        expect(failing).toBeDefined();
        const change = { kind: "publish" as const, site: "broken", host: host("broken"), previous: null };
        const failure = await failing!.apply([change]).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(DnsFailure);
        expect((failure as DnsFailure).change).toEqual(change);
        expect((failure as DnsFailure).done).toEqual([]);
        expect((failure as DnsFailure).message).toMatch(/^DNS: publishing .* \(Site broken\) failed: .*Nothing was saved; fix the cause and apply the file again to finish\.$/);
      });
    }
  });
}
