// The runner behind Kong: serves only requests that carry a valid dispatch record from the gateway, for exactly the
// request it was made for, once. Anything else is refused before any Workflow code is looked at.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { SnapshotCache } from "../store/snapshot-cache";
import type { Revision } from "../store/model";
import type { SiteSnapshot } from "../store/snapshot";
import { DISPATCH_HEADER, verifyDispatch } from "../plugins/flowgate/dispatch-record";
import type { DispatchRecord } from "../plugins/flowgate/dispatch-record";
import { errorResponse, payloadTooLarge } from "../plugins/flowgate/responses";
import { normaliseHost } from "../plugins/flowgate/site-host";
import type { RunnerContext } from "./execute-call";
import { executeCall } from "./execute-call";
import { readBody, requestHeaders, splitUrl, writeResponse } from "./http-io";
import { internalError } from "./internal-error";

export interface RunnerOptions {
  readonly snapshots: SnapshotCache;
  readonly runner: Omit<RunnerContext, "special">;
  readonly secret: Buffer;
  readonly warn: (message: string) => void;
  readonly now?: () => number;
}

/** Remembers the activity ids already served until their records expire, so a record works once. */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();
  private sweptAt = 0;

  claim(activityId: string, expiresAt: number, now: number): boolean {
    // Expired ids are swept at most once a second, so the cost per request does not grow with traffic.
    if (now - this.sweptAt >= 1000) {
      this.sweptAt = now;
      for (const [id, expiry] of this.seen) if (expiry < now) this.seen.delete(id);
    }
    if (this.seen.has(activityId)) return false;
    this.seen.set(activityId, expiresAt);
    return true;
  }
}

export function runnerHandler(options: RunnerOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const replay = new ReplayGuard();
  return (request, response) => {
    handle(request, response, options, replay).catch((error: unknown) => internalError(response, request.method ?? "GET", error, options.warn));
  };
}

const REFUSED = "This endpoint serves only requests forwarded by the Flowgate gateway.";
/** For Kong's active health checks of the runner upstream; it runs no Workflow and reveals nothing. */
export const HEALTH_PATH = "/.flowgate/health";

async function handle(request: IncomingMessage, response: ServerResponse, options: RunnerOptions, replay: ReplayGuard): Promise<void> {
  const method = request.method ?? "GET";
  const headers = requestHeaders(request);
  const { path, query } = splitUrl(request.url ?? "/");
  const now = (options.now ?? Date.now)();
  if (path === HEALTH_PATH && (method === "GET" || method === "HEAD") && headers[DISPATCH_HEADER] === undefined) {
    return writeResponse(response, method, { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: '{"status":"ok"}' });
  }
  const refuse = (activityId: string, problem: string) => {
    options.warn(`flowgate runner: refused ${method} ${path} from ${request.socket.remoteAddress}: ${problem}`);
    writeResponse(response, method, errorResponse(403, activityId, REFUSED));
  };

  const verified = verifyDispatch(headers[DISPATCH_HEADER], options.secret, now);
  if (!verified.ok) return refuse("", verified.problem);
  const record = verified.record;
  if (record.host !== normaliseHost(headers.host ?? "") || record.method !== method || record.path !== path || record.query !== query) {
    return refuse(record.activityId, "the dispatch record was made for another request");
  }
  if (!replay.claim(record.activityId, record.expiresAt, now)) return refuse(record.activityId, "the dispatch record was used already");

  const found = await findRevision(options.snapshots, record);
  if (!found) {
    return writeResponse(response, method, errorResponse(502, record.activityId, "The runner does not know this Workflow revision; its configuration may be catching up."));
  }
  const limit = found.revision.limits.maxBodyBytes;
  const body = await readBody(request, limit);
  if (!body.ok) return writeResponse(response, method, payloadTooLarge(record.activityId, limit), { connection: "close" });
  const answer = await executeCall(found.site, record, found.revision, { method, path, query, headers, body: body.body }, { ...options.runner, special: options.snapshots.current().special });
  writeResponse(response, method, answer);
}

/** The record's revision, from the current snapshot or, when the gateway saw a newer one, after a refresh. */
async function findRevision(snapshots: SnapshotCache, record: DispatchRecord): Promise<{ site: SiteSnapshot; revision: Revision } | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const site = snapshots.current().sitesByHost.get(record.host);
    const revision = site?.site.name === record.site ? site.site.workflows.find((workflow) => workflow.name === record.workflow)?.revisions.find((candidate) => candidate.number === record.revision) : undefined;
    if (site && revision) return { site, revision };
    if (attempt === 0) await snapshots.refresh();
  }
  return null;
}
