// The default: a wildcard record (`*.<base domain>`) already points every Site's name at the gateway, so saving a
// Site creates nothing; a Site's name resolves as soon as it is configured.

import type { DnsProvider } from "../dns-provider";
import { resolvesPublicly } from "../system-resolution";

export function wildcardProvider(resolves: (host: string) => Promise<boolean> = resolvesPublicly): DnsProvider {
  return {
    name: "wildcard",
    async apply() {},
    async state(host) {
      return (await resolves(host)) ? { kind: "resolving" } : { kind: "pending-resolution" };
    },
  };
}
