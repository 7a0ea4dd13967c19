// Turns a request's credentials into a principal, or into the answer that refuses it (spec: "Authentication").

import type { Principal } from "../principal";
import type { Revision } from "../../../store/model";
import type { SiteSnapshot } from "../../../store/snapshot";

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
 * A Workflow configured as anonymous needs no credentials. Any other needs a principal from one of the Site's
 * authentication methods; with no method able to vouch for the caller, the answer is 401.
 */
export function anonymousOnly(): Authenticate {
  return async (_request, _site, _environment, revision) =>
    revision.anonymous
      ? { kind: "principal", principal: { kind: "anonymous" } }
      : { kind: "deny", status: 401, message: "This Workflow needs credentials.", headers: {} };
}
