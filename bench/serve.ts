// flowgate serve against a bare node:http server answering the same bytes, with the same load generator in the same
// run: a trivial Workflow (GET /customers/{id} returning two fields), and a 1 MB binary body in and out.

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";

const HOST = "shop.flowgate.localhost";
const BINARY = Buffer.alloc(1024 * 1024, 7);

const CONFIG = `sites:
  - name: shop
    subdomain: shop
    workflows:
      - { name: customer, method: GET, template: "/customers/{id}", variableBar: { inputs: [id], outputs: [id, name] }, code: customer.js, anonymous: true }
      - { name: echo, method: POST, template: /echo, variableBar: { inputs: [FgRequestBody], outputs: [FgResponseBody, FgResponseContentType] }, code: echo.js, anonymous: true, limits: { maxBodyBytes: 2097152 } }
`;

// The baseline: node:http answering exactly what the Workflows answer, with no routing, sandbox or logging.
const BARE = `
const http = require("node:http");
const server = http.createServer((request, response) => {
  if (request.method === "POST") {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      response.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
      response.end(body);
    });
    return;
  }
  const id = request.url.split("/")[2];
  const body = JSON.stringify({ id, name: "Customer " + id });
  response.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port));
`;

function start(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (found) resolve({ child, port: Number(found[1]) });
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before listening: ${output}`)));
  });
}

async function load(port: number, path: string, options: Partial<autocannon.Options>): Promise<number> {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections: 16, duration: 4, headers: { host: HOST }, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  return result.requests.average;
}

/** Alternates the two servers over a few rounds and keeps the median of each, so both meet the same noise. */
async function compare(name: string, what: string, flowgate: number, bare: number, path: string, options: Partial<autocannon.Options> = {}): Promise<void> {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < 3; round++) {
    ours.push(await load(flowgate, path, options));
    theirs.push(await load(bare, path, options));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
  console.log(`${name}: flowgate serve ${Math.round(median(ours))} requests/s, bare node:http ${Math.round(median(theirs))} requests/s`);
  console.log(`${name}: ratio=${(median(ours) / median(theirs)).toFixed(2)} (${what})`);
}

export default async function serve(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "flowgate-bench-"));
  mkdirSync(join(dir, "data"));
  writeFileSync(join(dir, "flowgate.yaml"), CONFIG);
  writeFileSync(join(dir, "customer.js"), 'export default ({ id }) => ({ id, name: "Customer " + id });');
  writeFileSync(join(dir, "echo.js"), 'export default ({ FgRequestBody }) => ({ FgResponseBody: FgRequestBody, FgResponseContentType: "application/octet-stream" });');
  writeFileSync(join(dir, "bare.js"), BARE);

  const flowgate = await start([join(__dirname, "..", "dist", "cli", "main.js"), "--data-dir", join(dir, "data"), "serve", "--apply", join(dir, "flowgate.yaml"), "--port", "0"]);
  const bare = await start([join(dir, "bare.js")]);
  try {
    await compare("serve", "flowgate serve requests/s over bare node:http requests/s, GET /customers/{id}", flowgate.port, bare.port, "/customers/42");
    await compare("serve-binary", "flowgate serve requests/s over bare node:http requests/s, 1 MB binary POST echoed", flowgate.port, bare.port, "/echo", {
      method: "POST",
      headers: { host: HOST, "content-type": "application/octet-stream" },
      body: BINARY,
      connections: 4,
    });
  } finally {
    flowgate.child.kill("SIGTERM");
    bare.child.kill("SIGTERM");
  }
}
