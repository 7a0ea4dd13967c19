// Test helper: an HTTP client that sets the Host header itself, as calls to a Site's subdomain do.

import { request as httpRequest } from "node:http";

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface Call {
  readonly method?: string;
  readonly host: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
  /** Send the body in chunks without a Content-Length. */
  readonly chunked?: boolean;
}

export function call(port: number, { method = "GET", host, path, headers = {}, body, chunked = false }: Call): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, method, path, headers: { host, ...headers }, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: bytes, text: bytes.toString("utf8"), json: () => JSON.parse(bytes.toString("utf8")) });
      });
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    if (body !== undefined && chunked) {
      const bytes = Buffer.from(body);
      for (let offset = 0; offset < bytes.length; offset += 65536) outgoing.write(bytes.subarray(offset, offset + 65536));
    } else if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });
}
