// The contract of a DNS provider (spec: "Site configuration": saving a Site creates a DNS record). One folder per
// provider; spec/06-dns/dns-contract.ts is the test every provider passes.

/** A change to the names Sites are reached at, made when a configuration is applied. */
export type HostChange =
  | { readonly kind: "publish"; readonly site: string; readonly host: string; readonly previous: string | null }
  | { readonly kind: "remove"; readonly site: string; readonly host: string };

export type DnsState =
  /** Public resolution answers for the name. */
  | { readonly kind: "resolving" }
  /** The record exists where it is made, and the name does not resolve yet: propagation takes minutes. */
  | { readonly kind: "pending-resolution" }
  /** The record is missing where it should be; applying the configuration again makes it. */
  | { readonly kind: "missing" }
  | { readonly kind: "failed"; readonly answer: string };

export interface DnsProvider {
  readonly name: string;
  /** Makes each change, in order; on failure, says which changes were made before it, so a re-run can finish. */
  apply(changes: readonly HostChange[]): Promise<void>;
  /** Where the name stands, from real queries. */
  state(host: string): Promise<DnsState>;
}

/** A DNS change that failed; `done` lists the changes made before it, which stay made. */
export class DnsFailure extends Error {
  constructor(
    readonly change: HostChange,
    readonly answer: string,
    readonly done: readonly HostChange[],
  ) {
    super(
      `DNS: ${change.kind === "publish" ? "publishing" : "removing"} ${change.host} (Site ${change.site}) failed: ${answer}.` +
        (done.length ? ` Already made: ${done.map((made) => made.host).join(", ")}.` : "") +
        " Nothing was saved; fix the cause and apply the file again to finish.",
    );
  }
}

/**
 * The changes of one apply, made safe to run in order: a name another Site takes in the same apply is neither
 * removed nor cleared as a previous name, and removals go before additions.
 */
export function orderHostChanges(changes: readonly HostChange[]): HostChange[] {
  const published = new Set(changes.flatMap((change) => (change.kind === "publish" ? [change.host] : [])));
  const removals = changes.filter((change) => change.kind === "remove" && !published.has(change.host));
  const publications = changes.flatMap((change) =>
    change.kind === "publish" ? [change.previous !== null && published.has(change.previous) ? { ...change, previous: null } : change] : [],
  );
  return [...removals, ...publications];
}
