// The authentication Flowgate ships: API keys, legacy Basic and legacy session tokens, sharing one password check
// (throttle and cache) and one session cache, plus the session-token endpoint on the auth hosts.

import type { GatewaySnapshot } from "../../../store/snapshot";
import type { GatewayResponse } from "../responses";
import type { AuthProvider } from "./auth-provider";
import type { Authenticate } from "./authenticate";
import { authenticator } from "./authenticate";
import { PasswordCheck } from "./password-check";
import type { PasswordCheckOptions } from "./password-check";
import { apiKeyProvider } from "./api-key/api-key-provider";
import { basicProvider } from "./basic/basic-provider";
import { sessionProvider } from "./session/session-provider";
import { SessionCache } from "./session/sessions";
import type { SessionCacheOptions, SessionStore } from "./session/sessions";
import { answerTokenRequest, isAuthHost } from "./session/token-endpoint";
import type { TokenRequest } from "./session/token-endpoint";

export interface Authentication {
  readonly authenticate: Authenticate;
  /** The token endpoint's answer for a request to an auth host, or null for any other host. */
  readonly tokenEndpoint: (snapshot: GatewaySnapshot, request: TokenRequest) => Promise<GatewayResponse> | null;
}

export interface AuthenticationOptions {
  readonly passwords?: PasswordCheckOptions;
  readonly sessions?: SessionCacheOptions;
  /** Providers of other methods, asked after the built-in ones for Sites that list them. */
  readonly extraProviders?: readonly AuthProvider[];
}

export function builtInAuthentication(snapshot: () => GatewaySnapshot, sessionStore: SessionStore, options: AuthenticationOptions = {}): Authentication {
  const passwords = new PasswordCheck(options.passwords);
  const sessions = new SessionCache(sessionStore, options.sessions);
  const providers = [apiKeyProvider(snapshot), basicProvider(snapshot, passwords), sessionProvider(snapshot, sessions, options.sessions?.now), ...(options.extraProviders ?? [])];
  return {
    authenticate: authenticator(providers),
    tokenEndpoint: (current, request) => (isAuthHost(current, request.host) ? answerTokenRequest(current, request, passwords, sessionStore, options.sessions?.now) : null),
  };
}
