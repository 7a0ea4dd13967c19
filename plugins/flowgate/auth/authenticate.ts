// Turns a request's credentials into a principal, or into the answer that refuses it (spec: "Authentication";
// status codes: docs/decisions.md). Each Site accepts the methods it lists; their providers are asked in turn.

import type { Principal } from "../principal";
import type { Revision } from "../../../store/model";
import type { SiteSnapshot } from "../../../store/snapshot";
import type { AuthProvider } from "./auth-provider";

export interface CredentialFacts {
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly query: string;
  /** The caller's address, for throttling failed attempts. */
  readonly clientAddress: string;
}

export type AuthOutcome =
  | { readonly kind: "principal"; readonly principal: Principal }
  | { readonly kind: "deny"; readonly status: 401 | 403 | 429; readonly message: string; readonly headers: Readonly<Record<string, string>> };

export type Authenticate = (request: CredentialFacts, site: SiteSnapshot, environment: string, revision: Revision) => Promise<AuthOutcome>;

/**
 * A Workflow configured as anonymous needs no credentials and looks at none. Any other needs a principal from one
 * of the methods its Site accepts: the first provider that recognises its kind of credentials decides.
 */
export function authenticator(providers: readonly AuthProvider[]): Authenticate {
  return async (request, site, environment, revision) => {
    if (revision.anonymous) return { kind: "principal", principal: { kind: "anonymous" } };
    const accepted = providers.filter((provider) => site.site.authMethods.includes(provider.method as never));
    const challenges = accepted.flatMap((provider) => (provider.challenge ? [provider.challenge(site)] : []));
    const unauthorized = (message: string): AuthOutcome => ({ kind: "deny", status: 401, message, headers: challenges.length ? { "www-authenticate": challenges.join(", ") } : {} });
    for (const provider of accepted) {
      const answer = await provider.authenticate({ request, site, environment, workflow: revision.workflow });
      switch (answer.kind) {
        case "not-mine":
          continue;
        case "principal":
          return answer;
        case "invalid":
          return unauthorized(answer.message);
        case "forbidden":
          return { kind: "deny", status: 403, message: answer.message, headers: {} };
        case "throttled":
          return { kind: "deny", status: 429, message: "Too many failed attempts; try again later.", headers: { "retry-after": String(answer.retryAfterSeconds) } };
      }
    }
    if (accepted.length === 0) return unauthorized("This Workflow needs credentials, and its Site accepts no authentication method.");
    return unauthorized(`This Workflow needs credentials: ${accepted.map((provider) => provider.describe).join("; or ")}.`);
  };
}
