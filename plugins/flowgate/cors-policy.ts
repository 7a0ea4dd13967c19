// The CORS policy of a Site, from its Allowed Origins (spec: "Site"). Kong's `cors` plugin is configured from it, and
// `flowgate serve` applies the same policy itself, so a browser sees the same answers from both.

import type { SiteDefinition } from "../../store/model";
import { BINDABLE_METHODS } from "./routing/binding";
import { ACTIVITY_ID_HEADER } from "./responses";

export interface CorsPolicy {
  /** `*`, or the exact origins allowed. */
  readonly origins: "*" | readonly string[];
  readonly methods: readonly string[];
  readonly exposedHeaders: readonly string[];
  /** Credentials (cookies, Authorization) may be sent only to listed origins, never to `*`, as browsers require. */
  readonly credentials: boolean;
  readonly maxAgeSeconds: number;
}

export function corsPolicy(site: Pick<SiteDefinition, "allowedOrigins">): CorsPolicy {
  return {
    origins: site.allowedOrigins,
    methods: [...BINDABLE_METHODS, "HEAD", "OPTIONS"],
    exposedHeaders: [ACTIVITY_ID_HEADER, "www-authenticate", "retry-after"],
    credentials: site.allowedOrigins !== "*",
    maxAgeSeconds: 3600,
  };
}

/** The CORS response headers for a request from `origin` (none when it is not allowed). */
export function corsHeaders(policy: CorsPolicy, origin: string | undefined, preflight: { readonly requestHeaders: string | undefined } | null): Record<string, string> {
  if (!origin) return {};
  const allowed = policy.origins === "*" || policy.origins.includes(origin);
  if (!allowed) return {};
  const headers: Record<string, string> = { "access-control-allow-origin": policy.origins === "*" ? "*" : origin };
  if (policy.origins !== "*") headers.vary = "Origin";
  if (policy.credentials) headers["access-control-allow-credentials"] = "true";
  if (preflight) {
    headers["access-control-allow-methods"] = policy.methods.join(",");
    // As Kong's cors plugin does when no header list is configured: allow what the browser asks for.
    if (preflight.requestHeaders) headers["access-control-allow-headers"] = preflight.requestHeaders;
    headers["access-control-max-age"] = String(policy.maxAgeSeconds);
  } else {
    headers["access-control-expose-headers"] = policy.exposedHeaders.join(",");
  }
  return headers;
}

/** A CORS preflight: never needs credentials, never reaches a Workflow. */
export function isPreflight(method: string, headers: Readonly<Record<string, string>>): boolean {
  return method === "OPTIONS" && headers.origin !== undefined && headers["access-control-request-method"] !== undefined;
}
