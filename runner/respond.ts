// Turns a Workflow's outputs into the HTTP response (spec: "Payload"): a JSON object of the Variable Bar outputs by
// default, or the raw FgResponseBody with its content type, status code and headers.

import type { VariableBarDefinition } from "../store/model";
import type { SpecialProperties } from "../plugins/flowgate/variable-bar";

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: Buffer;
}

export type ResponseResult = { readonly ok: true; readonly response: HttpResponse } | { readonly ok: false; readonly message: string };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Hop-by-hop headers belong to one connection, and framing headers to the server that frames the body.
const SERVER_OWNED = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "content-length"]);
const BODYLESS_STATUS = new Set([204, 304]);

export function buildResponse(variableBar: VariableBarDefinition, special: SpecialProperties, outputs: unknown): ResponseResult {
  if (outputs !== undefined && outputs !== null && (typeof outputs !== "object" || Array.isArray(outputs) || ArrayBuffer.isView(outputs))) {
    return { ok: false, message: "the Workflow must return an object of Variable Bar outputs" };
  }
  const values = (outputs ?? {}) as Record<string, unknown>;
  const declared = new Set(variableBar.outputs);
  const given = (name: string) => (declared.has(name) ? values[name] : undefined);

  const status = given(special.outputs.ResponseCode);
  if (status !== undefined && (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599)) {
    return { ok: false, message: `${special.outputs.ResponseCode} must be a whole number from 200 to 599, not ${JSON.stringify(status)}` };
  }
  const headers = checkHeaders(given(special.outputs.ResponseHeaders), special);
  if (!headers.ok) return headers;
  const code = (status as number | undefined) ?? 200;

  const raw = given(special.outputs.ResponseBody);
  if (raw !== undefined) {
    const body = rawBody(raw);
    if (body === null) return { ok: false, message: `${special.outputs.ResponseBody} must be text or bytes (a string, Uint8Array or ArrayBuffer)` };
    const contentType = given(special.outputs.ResponseContentType);
    if (contentType !== undefined && (typeof contentType !== "string" || !validValue(contentType))) {
      return { ok: false, message: `${special.outputs.ResponseContentType} must be a string without line breaks` };
    }
    const defaultType = typeof raw === "string" ? "text/plain; charset=utf-8" : "application/octet-stream";
    return finish(code, { ...headers.headers, "content-type": (contentType as string | undefined) ?? headers.headers["content-type"] ?? defaultType }, body);
  }

  const specialOutputs = new Set(Object.values(special.outputs));
  const json: Record<string, unknown> = {};
  for (const name of variableBar.outputs) if (!specialOutputs.has(name)) json[name] = jsonSafe(values[name]);
  return finish(code, { ...headers.headers, "content-type": "application/json; charset=utf-8" }, Buffer.from(JSON.stringify(json)));
}

function finish(status: number, headers: Record<string, string | string[]>, body: Buffer): ResponseResult {
  return { ok: true, response: { status, headers, body: BODYLESS_STATUS.has(status) ? Buffer.alloc(0) : body } };
}

function rawBody(value: unknown): Buffer | null {
  if (typeof value === "string") return Buffer.from(value, "utf8");
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  return null;
}

/** A missing output is null, and bytes travel as base64, so the JSON shape is the same on every call. */
function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  return value;
}

function validValue(value: string): boolean {
  return !/[\r\n\0]/.test(value);
}

function checkHeaders(value: unknown, special: SpecialProperties): { ok: true; headers: Record<string, string | string[]> } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, headers: {} };
  const name = special.outputs.ResponseHeaders;
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, message: `${name} must be an object of header names and values` };
  const headers: Record<string, string | string[]> = {};
  for (const [header, raw] of Object.entries(value as Record<string, unknown>)) {
    const lower = header.toLowerCase();
    if (!TOKEN.test(header)) return { ok: false, message: `${name}: "${header}" is not a valid header name` };
    if (SERVER_OWNED.has(lower) || lower.startsWith("x-flowgate-")) return { ok: false, message: `${name}: "${header}" is set by the server, not by a Workflow` };
    const values = (Array.isArray(raw) ? raw : [raw]).map((item) => (typeof item === "number" ? String(item) : item));
    if (!values.every((item): item is string => typeof item === "string" && validValue(item))) {
      return { ok: false, message: `${name}: the value of "${header}" must be text without line breaks` };
    }
    headers[lower] = values.length === 1 ? values[0]! : values;
  }
  return { ok: true, headers };
}
