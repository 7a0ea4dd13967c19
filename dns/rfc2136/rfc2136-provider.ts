// Dynamic DNS updates (RFC 2136) signed with TSIG, to the authoritative server of each base domain's zone: saving a
// Site creates its record, renaming it replaces the old one, removing it deletes it.

import type { DnsProvider, DnsState, HostChange } from "../dns-provider";
import { DnsFailure } from "../dns-provider";
import { resolvesPublicly } from "../system-resolution";
import { exchange, queryMessage, signWithTsig, updateMessage } from "./dns-messages";
import type { DnsServer, RecordTarget, TsigKey } from "./dns-messages";

export interface Rfc2136Settings {
  readonly server: DnsServer;
  readonly key: TsigKey;
  /** What a Site's name points at: the gateway's address, or a CNAME to it. */
  readonly target: RecordTarget;
  readonly ttl: number;
  /** The zones updates go to; a host belongs to the longest that ends it. */
  readonly zones: readonly string[];
  readonly timeoutMs?: number;
}

export function rfc2136Provider(settings: Rfc2136Settings, resolves: (host: string) => Promise<boolean> = resolvesPublicly): DnsProvider {
  const timeoutMs = settings.timeoutMs ?? 3000;
  const zoneOf = (host: string): string => {
    const name = host.toLowerCase();
    const zone = [...settings.zones].sort((a, b) => b.length - a.length).find((candidate) => name === candidate || name.endsWith(`.${candidate}`));
    if (!zone) throw new Error(`${host} is in none of the zones ${settings.zones.join(", ")}`);
    return zone;
  };
  const update = async (zone: string, clear: string[], add: Parameters<typeof updateMessage>[2]) => {
    const reply = await exchange(settings.server, signWithTsig(updateMessage(zone, clear, add), settings.key), timeoutMs);
    if (reply.rcode !== "NOERROR") throw new Error(`the server answered ${reply.rcode}`);
  };

  return {
    name: "rfc2136",
    async apply(changes: readonly HostChange[]) {
      const done: HostChange[] = [];
      for (const change of changes) {
        try {
          const zone = zoneOf(change.host);
          if (change.kind === "remove") await update(zone, [change.host], null);
          else {
            const previous = change.previous && change.previous !== change.host ? change.previous : null;
            // A rename within the zone is one update, so the old name goes exactly when the new one comes.
            const sameZone = previous !== null && zoneOf(previous) === zone;
            await update(zone, sameZone ? [previous, change.host] : [change.host], { host: change.host, target: settings.target, ttl: settings.ttl });
            if (previous !== null && !sameZone) await update(zoneOf(previous), [previous], null);
          }
        } catch (error) {
          throw new DnsFailure(change, (error as Error).message, done);
        }
        done.push(change);
      }
    },
    async state(host: string): Promise<DnsState> {
      let authoritative: boolean;
      try {
        const reply = await exchange(settings.server, queryMessage(host, settings.target.type), timeoutMs);
        if (reply.rcode !== "NOERROR" && reply.rcode !== "NXDOMAIN") return { kind: "failed", answer: `the server answered ${reply.rcode}` };
        authoritative = (reply.answers ?? []).some((answer) => answer.type === settings.target.type);
      } catch (error) {
        return { kind: "failed", answer: (error as Error).message };
      }
      if (!authoritative) return { kind: "missing" };
      return (await resolves(host)) ? { kind: "resolving" } : { kind: "pending-resolution" };
    },
  };
}
