// The Kong plugin's phases (Kong's `handler.lua`): talks PDK and nothing else. It gathers the request's facts in
// as few PDK calls as it can (each is a round trip to Kong), asks `decide`, then either ends the request or lets
// Kong proxy it to the runner with the signed dispatch record.
//
// Kong lets a request through when a plugin phase throws, so every path that can fail ends in an explicit 500:
// this plugin fails closed. The runner's dispatch check stands behind it anyway.

import { randomUUID } from "node:crypto";
import { decide } from "./decide";
import { DISPATCH_HEADER, signDispatch } from "./dispatch-record";
import { errorResponse } from "./responses";
import type { GatewayResponse } from "./responses";
import { gatewayRuntime } from "./gateway-runtime";
import { flattenHeaders } from "./request-headers";
import type { FlowgatePluginConfig } from "./schema";

/** The PDK calls this plugin makes, as kong-pdk exposes them. */
export interface KongPdk {
  readonly request: {
    getMethod(): Promise<string>;
    getPathWithQuery(): Promise<string>;
    getHeaders(): Promise<Record<string, string | string[]>>;
  };
  readonly client: { getForwardedIp(): Promise<string> };
  readonly service: { readonly request: { setHeaders(headers: Record<string, string>): Promise<unknown>; clearHeader(name: string): Promise<unknown> } };
  readonly response: { exit(status: number, body?: string, headers?: Record<string, string>): Promise<void> };
  readonly log: { err(...message: unknown[]): Promise<unknown> };
}

/** Only a password check throttles by address, so only requests that may need one pay a PDK call for it. */
function mayCheckPassword(headers: Readonly<Record<string, string>>, query: string, host: string): boolean {
  return /^basic\b/i.test(headers.authorization ?? "") || /(^|&)auth=/i.test(query) || host.toLowerCase().startsWith("auth.");
}

export class FlowgateHandler {
  constructor(private readonly config: FlowgatePluginConfig = {}) {}

  async access(kong: KongPdk): Promise<void> {
    try {
      return await this.decideAccess(kong);
    } catch (error) {
      const activityId = randomUUID();
      await kong.log.err(`flowgate: request refused (activity ${activityId}): ${error instanceof Error ? error.message : String(error)}`).catch(() => undefined);
      return exit(kong, errorResponse(500, activityId, "An unexpected error occurred."));
    }
  }

  private async decideAccess(kong: KongPdk): Promise<void> {
    const runtime = await gatewayRuntime(process.env, this.config.poll_interval_ms);
    const method = await kong.request.getMethod();
    const pathWithQuery = await kong.request.getPathWithQuery();
    const headers = flattenHeaders(await kong.request.getHeaders());
    const mark = pathWithQuery.indexOf("?");
    const path = mark === -1 ? pathWithQuery : pathWithQuery.slice(0, mark);
    const query = mark === -1 ? "" : pathWithQuery.slice(mark + 1);
    const host = headers.host ?? "";
    const clientAddress = mayCheckPassword(headers, query, host) ? await kong.client.getForwardedIp() : "";
    const snapshot = runtime.snapshots.current();

    const token = runtime.authentication.tokenEndpoint(snapshot, { method, host, path, query, clientAddress });
    if (token) return exit(kong, await token);

    const decision = await decide(snapshot, { method, host, path, query, headers, clientAddress }, { authenticate: runtime.authentication.authenticate });
    if (decision.kind === "respond") return exit(kong, decision.response);

    // A client's own copies of Flowgate's internal headers never reach the runner.
    for (const name of Object.keys(headers)) if (name.startsWith("x-flowgate-") && name !== DISPATCH_HEADER) await kong.service.request.clearHeader(name);
    await kong.service.request.setHeaders({ [DISPATCH_HEADER]: signDispatch(decision.record, runtime.secret) });
  }
}

function exit(kong: KongPdk, response: GatewayResponse): Promise<void> {
  return kong.response.exit(response.status, response.body, { ...response.headers });
}
