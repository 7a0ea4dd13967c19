// `flowgate serve`: the whole pipeline in one process, on node:http. CORS as Kong's cors plugin would answer it, then
// the same decision the Kong plugin makes, then the same call the runner makes behind Kong.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { SnapshotCache } from "../store/snapshot-cache";
import type { Authentication } from "../plugins/flowgate/auth/built-in-authentication";
import { decide } from "../plugins/flowgate/decide";
import { corsHeaders, corsPolicy, isPreflight } from "../plugins/flowgate/cors-policy";
import { normaliseHost } from "../plugins/flowgate/site-host";
import { payloadTooLarge } from "../plugins/flowgate/responses";
import type { RunnerContext } from "./execute-call";
import { executeCall } from "./execute-call";
import { readBody, requestHeaders, splitUrl, writeResponse } from "./http-io";
import { internalError } from "./internal-error";

export interface ServeOptions {
  readonly snapshots: SnapshotCache;
  readonly runner: Omit<RunnerContext, "special">;
  readonly authentication: Pick<Authentication, "authenticate"> & Partial<Pick<Authentication, "tokenEndpoint">>;
  readonly warn: (message: string) => void;
}

export function serveHandler(options: ServeOptions): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    handle(request, response, options).catch((error: unknown) => internalError(response, request.method ?? "GET", error, options.warn));
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: ServeOptions): Promise<void> {
  const snapshot = options.snapshots.current();
  const method = request.method ?? "GET";
  const headers = requestHeaders(request);
  const { path, query } = splitUrl(request.url ?? "/");
  const clientAddress = request.socket.remoteAddress ?? "";
  const token = options.authentication.tokenEndpoint?.(snapshot, { method, host: headers.host ?? "", path, query, clientAddress });
  if (token) return writeResponse(response, method, await token);
  const site = snapshot.sitesByHost.get(normaliseHost(headers.host ?? ""));
  const policy = site ? corsPolicy(site.site) : null;
  if (policy && isPreflight(method, headers)) {
    return writeResponse(response, method, { status: 200, headers: corsHeaders(policy, headers.origin, { requestHeaders: headers["access-control-request-headers"] }), body: "" });
  }
  const cors = policy ? corsHeaders(policy, headers.origin, null) : {};

  const decision = await decide(snapshot, { method, host: headers.host ?? "", path, query, headers, clientAddress }, { authenticate: options.authentication.authenticate });
  if (decision.kind === "respond") return writeResponse(response, method, decision.response, cors);

  const limit = decision.revision.limits.maxBodyBytes;
  const body = await readBody(request, limit);
  if (!body.ok) return writeResponse(response, method, payloadTooLarge(decision.record.activityId, limit), { ...cors, connection: "close" });
  const answer = await executeCall(decision.site, decision.record, decision.revision, { method, path, query, headers, body: body.body }, { ...options.runner, special: snapshot.special });
  writeResponse(response, method, answer, cors);
}
