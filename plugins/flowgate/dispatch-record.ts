// The dispatch record: what the gateway decided about a request, signed so the runner can trust it (docs/decisions.md,
// "Between plugin and runner"). The runner refuses any request without a valid one, so a plugin that fails open, or a
// client that reaches the runner directly, cannot run a Workflow.

import { createHmac, timingSafeEqual } from "node:crypto";
import type { Principal } from "./principal";

export const DISPATCH_HEADER = "x-flowgate-dispatch";
/** How long a record stays valid: long enough to cross to the runner, too short to be worth stealing. */
export const DISPATCH_LIFETIME_MS = 30_000;
export const MINIMUM_SECRET_BYTES = 32;

export interface DispatchRecord {
  readonly activityId: string;
  readonly site: string;
  /** The Site's host: the runner checks the forwarded request is for the same Site. */
  readonly host: string;
  readonly environment: string;
  readonly workflow: string;
  readonly revision: number;
  /** The Variable Bar inputs bound from the path and the query. */
  readonly variables: Readonly<Record<string, string>>;
  readonly principal: Principal;
  /** The request the record was made for; a record is good for that request only. */
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly expiresAt: number;
}

export type DispatchVerification = { readonly ok: true; readonly record: DispatchRecord } | { readonly ok: false; readonly problem: string };

export function dispatchSecret(text: string | undefined): Buffer {
  const secret = Buffer.from(text ?? "", "utf8");
  if (secret.length < MINIMUM_SECRET_BYTES) {
    throw new Error(`the dispatch secret (FLOWGATE_DISPATCH_SECRET) must be at least ${MINIMUM_SECRET_BYTES} bytes; the gateway and the runner share it`);
  }
  return secret;
}

function signature(payload: string, secret: Buffer): Buffer {
  return createHmac("sha256", secret).update(payload).digest();
}

export function signDispatch(record: DispatchRecord, secret: Buffer): string {
  const payload = Buffer.from(JSON.stringify(record), "utf8").toString("base64url");
  return `${payload}.${signature(payload, secret).toString("base64url")}`;
}

/** Checks the signature and the expiry; the caller checks the record against the request it came with. */
export function verifyDispatch(header: string | undefined, secret: Buffer, now: number): DispatchVerification {
  if (!header) return { ok: false, problem: "no dispatch record" };
  const [payload, mac, extra] = header.split(".");
  if (!payload || !mac || extra !== undefined) return { ok: false, problem: "malformed dispatch record" };
  const expected = signature(payload, secret);
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: "dispatch record signature does not verify" };
  let record: DispatchRecord;
  try {
    record = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as DispatchRecord;
  } catch {
    return { ok: false, problem: "malformed dispatch record" };
  }
  if (typeof record.expiresAt !== "number" || record.expiresAt < now) return { ok: false, problem: "dispatch record has expired" };
  return { ok: true, record };
}
