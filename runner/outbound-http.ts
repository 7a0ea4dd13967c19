// `context.http.request`: outbound HTTP for Workflows, made by the host with a time limit, a size cap and the Site's
// allowlist of hosts. Redirects are returned, not followed, so a redirect cannot lead past the allowlist.

import type { OutboundRequest, OutboundResponse } from "./sandbox/sandbox-types";
import { isTextual, parseMediaType } from "../plugins/flowgate/media-type";

export interface OutboundPolicy {
  /** Host patterns (`api.example.com`, `*.example.com`, optionally with `:port`); null allows any host. */
  readonly allowedHosts: readonly string[] | null;
  /** The longest a request may take; the call's own remaining time bounds it too. */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

export function hostAllowed(url: URL, patterns: readonly string[] | null): boolean {
  if (patterns === null) return true;
  const host = url.hostname.toLowerCase();
  const port = url.port;
  return patterns.some((pattern) => {
    const [name, patternPort] = pattern.toLowerCase().split(":");
    if (patternPort !== undefined && patternPort !== port) return false;
    return name!.startsWith("*.") ? host.endsWith(name!.slice(1)) && host.length > name!.length - 1 : host === name;
  });
}

function checkRequest(raw: unknown): OutboundRequest {
  if (!raw || typeof raw !== "object") throw new TypeError("context.http.request takes an object: { url, method, headers, body, timeoutMs }");
  const request = raw as Record<string, unknown>;
  if (typeof request.url !== "string") throw new TypeError("context.http.request needs a url");
  if (request.headers !== undefined && (typeof request.headers !== "object" || request.headers === null || Object.values(request.headers).some((value) => typeof value !== "string"))) {
    throw new TypeError("context.http.request: headers must be an object of strings");
  }
  if (request.body !== undefined && typeof request.body !== "string" && !(request.body instanceof Uint8Array)) {
    throw new TypeError("context.http.request: body must be a string or a Uint8Array");
  }
  return request as unknown as OutboundRequest;
}

export async function outboundRequest(raw: unknown, policy: OutboundPolicy): Promise<OutboundResponse> {
  const request = checkRequest(raw);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new TypeError(`context.http.request: "${request.url}" is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`context.http.request: only http and https URLs, not ${url.protocol}`);
  if (!hostAllowed(url, policy.allowedHosts)) throw new Error(`context.http.request: ${url.host} is not in this Site's outboundHosts`);

  const timeoutMs = Math.max(1, Math.min(policy.timeoutMs, request.timeoutMs ?? policy.timeoutMs));
  let response: Response;
  try {
    response = await fetch(url, {
      method: (request.method ?? "GET").toUpperCase(),
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason = (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
    throw new Error(`context.http.request to ${url.origin}: ${reason}`);
  }
  const body = await readCapped(response, policy.maxResponseBytes, url);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const media = parseMediaType(response.headers.get("content-type"));
  return { status: response.status, headers, body: isTextual(media) ? new TextDecoder(media?.charset ?? "utf-8").decode(body) : body };
}

async function readCapped(response: Response, maxBytes: number, url: URL): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`context.http.request to ${url.origin}: the response is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
