// The contract every authentication method implements (spec: "Authentication"). A provider looks at a request's
// credentials of its own kind and answers: not mine, a principal, or why the request is refused. Plugin authors add
// a method by implementing this and passing spec/01-unit/auth/provider-contract.ts (docs/authentication.md).

import type { Principal } from "../principal";
import type { SiteSnapshot } from "../../../store/snapshot";
import type { CredentialFacts } from "./authenticate";

export interface AuthContext {
  readonly request: CredentialFacts;
  readonly site: SiteSnapshot;
  /** The Site Environment the call runs in. */
  readonly environment: string;
  readonly workflow: string;
}

export type ProviderAnswer =
  /** The request carries no credentials of this provider's kind: ask the next provider. */
  | { readonly kind: "not-mine" }
  | { readonly kind: "principal"; readonly principal: Principal }
  /** Credentials of this kind that are wrong, unknown, expired or disabled: 401. */
  | { readonly kind: "invalid"; readonly message: string }
  /** Valid credentials without permission for this Workflow, environment or Site: 403. */
  | { readonly kind: "forbidden"; readonly message: string }
  /** Too many failed attempts: 429 with Retry-After. */
  | { readonly kind: "throttled"; readonly retryAfterSeconds: number };

export interface AuthProvider {
  /** The name a Site lists in `auth` to accept this method. */
  readonly method: string;
  /** How a caller presents credentials of this kind, for the 401 message. */
  readonly describe: string;
  authenticate(context: AuthContext): Promise<ProviderAnswer>;
  /** A WWW-Authenticate challenge for 401 answers on Sites using this method, if it has one. */
  challenge?(site: SiteSnapshot): string;
}
