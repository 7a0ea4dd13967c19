// Routes a request through the snapshot: host to Site, `_profile` to Site Environment, method and path to a binding.

import type { GatewaySnapshot, SiteEnvironmentSnapshot, SiteSnapshot } from "../../store/snapshot";
import type { Revision } from "../../store/model";
import type { RouteLookup } from "./routing/routing-table";
import { parseQueryString } from "./templates/query-string";
import { normaliseHost } from "./site-host";
import { chooseEnvironment, PROFILE_PARAMETER } from "./site-environment";

export interface RequestFacts {
  readonly method: string;
  /** The Host header as sent. */
  readonly host: string;
  /** The raw path, without the query. */
  readonly path: string;
  /** The raw query string, without "?". */
  readonly query: string;
}

export type RequestRoute =
  | { readonly kind: "unknown-host"; readonly host: string }
  | { readonly kind: "bad-request"; readonly problem: string; readonly site: SiteSnapshot }
  | { readonly kind: "routed"; readonly site: SiteSnapshot; readonly environment: SiteEnvironmentSnapshot; readonly lookup: RouteLookup<Revision> };

export function routeRequest(snapshot: GatewaySnapshot, request: RequestFacts): RequestRoute {
  const host = normaliseHost(request.host);
  const site = snapshot.sitesByHost.get(host);
  if (!site) return { kind: "unknown-host", host };
  const query = parseQueryString(request.query);
  if (!query.ok) return { kind: "bad-request", problem: query.problem, site };
  const profiles = query.parameters.get(PROFILE_PARAMETER);
  if (profiles && profiles.length > 1) return { kind: "bad-request", problem: `${PROFILE_PARAMETER} was sent ${profiles.length} times; name one environment`, site };
  const environment = chooseEnvironment(site.environments, profiles?.[0]);
  if (!environment.ok) return { kind: "bad-request", problem: environment.problem, site };
  return { kind: "routed", site, environment: environment.environment, lookup: environment.environment.table.lookup(request.method, request.path, query.parameters) };
}
