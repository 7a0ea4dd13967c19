// Reading requests and writing responses on node:http, shared by `flowgate serve` and the runner behind Kong.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpResponse } from "./respond";
import { flattenHeaders } from "../plugins/flowgate/request-headers";

/** Header names lower-cased; repeated headers joined with ", " (Set-Cookie is a response header, so none is lost). */
export function requestHeaders(request: IncomingMessage): Record<string, string> {
  return flattenHeaders(request.headers);
}

export function splitUrl(url: string): { path: string; query: string } {
  const mark = url.indexOf("?");
  return mark === -1 ? { path: url, query: "" } : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}

export type BodyRead = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly tooLarge: true };

const EMPTY: BodyRead = { ok: true, body: Buffer.alloc(0) };

/** Reads the body, stopping as soon as it passes `limitBytes`. */
export function readBody(request: IncomingMessage, limitBytes: number): Promise<BodyRead> {
  // Most calls are GETs without a body: answer at once rather than wait a turn of the event loop for "end".
  if (request.headers["content-length"] === undefined && request.headers["transfer-encoding"] === undefined) {
    request.resume();
    return Promise.resolve(EMPTY);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        request.off("data", onData);
        request.resume();
        resolve({ ok: false, tooLarge: true });
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve({ ok: true, body: Buffer.concat(chunks) }));
    request.once("error", reject);
  });
}

/** Writes a response with an exact Content-Length; a HEAD request gets the headers without the body. */
export function writeResponse(response: ServerResponse, method: string, answer: HttpResponse | { status: number; headers: Readonly<Record<string, string>>; body: string }, extraHeaders: Record<string, string> = {}): void {
  const body = typeof answer.body === "string" ? Buffer.from(answer.body) : answer.body;
  response.writeHead(answer.status, { ...answer.headers, ...extraHeaders, "content-length": String(body.length) } as Record<string, string | string[]>);
  response.end(method === "HEAD" ? undefined : body);
}
