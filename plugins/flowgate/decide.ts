// What a request gets, decided without I/O: host to Site, `_profile` to Site Environment, template to Workflow,
// credentials to principal, path and query to Variable Bar values. The Kong plugin and `flowgate serve` both ask here.

import { randomUUID } from "node:crypto";
import type { GatewaySnapshot, SiteSnapshot } from "../../store/snapshot";
import type { Revision } from "../../store/model";
import type { RequestFacts } from "./route-request";
import { routeRequest } from "./route-request";
import type { Authenticate, CredentialFacts } from "./auth/authenticate";
import type { DispatchRecord } from "./dispatch-record";
import { DISPATCH_LIFETIME_MS } from "./dispatch-record";
import type { GatewayResponse } from "./responses";
import { errorResponse, noService, payloadTooLarge } from "./responses";

export interface GatewayRequest extends RequestFacts, CredentialFacts {}

export type Decision =
  | { readonly kind: "respond"; readonly response: GatewayResponse }
  | { readonly kind: "dispatch"; readonly record: DispatchRecord; readonly revision: Revision; readonly site: SiteSnapshot };

export interface DecideOptions {
  readonly authenticate: Authenticate;
  readonly now?: number;
  readonly activityId?: string;
}

export async function decide(snapshot: GatewaySnapshot, request: GatewayRequest, options: DecideOptions): Promise<Decision> {
  const activityId = options.activityId ?? randomUUID();
  const respond = (response: GatewayResponse): Decision => ({ kind: "respond", response });
  const route = routeRequest(snapshot, request);
  if (route.kind === "unknown-host") return respond(noService(activityId));
  if (route.kind === "bad-request") return respond(errorResponse(400, activityId, route.problem));
  const { lookup, site, environment } = route;
  if (lookup.kind === "no-service" || lookup.kind === "ambiguous") return respond(noService(activityId));
  if (lookup.kind === "bad-request") return respond(errorResponse(400, activityId, lookup.problem));

  const revision = lookup.binding.workflow;
  const declaredLength = Number(request.headers["content-length"] ?? 0);
  if (declaredLength > revision.limits.maxBodyBytes) return respond(payloadTooLarge(activityId, revision.limits.maxBodyBytes));

  const auth = await options.authenticate(request, site, environment.name, revision);
  if (auth.kind === "deny") return respond(errorResponse(auth.status, activityId, auth.message, { ...auth.headers }));

  const record: DispatchRecord = {
    activityId,
    site: site.site.name,
    host: site.host,
    environment: environment.name,
    workflow: revision.workflow,
    revision: revision.number,
    variables: lookup.variables,
    principal: auth.principal,
    method: request.method,
    path: request.path,
    query: request.query,
    expiresAt: (options.now ?? Date.now()) + DISPATCH_LIFETIME_MS,
  };
  return { kind: "dispatch", record, revision, site };
}
