// The Kong plugin through the real kong-js-pluginserver, driven by the harness that plays Kong's side of the
// socket protocol: PDK round trips per authenticated call, and access-phase events per second of flowgate against
// a reference plugin making the same PDK calls but deciding nothing, and against an empty access phase.

import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { KongHarness } from "../spec/05-plugin/kong-harness";
import type { KongRequest } from "../spec/05-plugin/kong-harness";
import { openStore } from "../store/open-store";
import { DEFAULT_LIMITS } from "../store/model";
import { hashApiKey } from "../plugins/flowgate/auth/secret-hash";

const KEY = "fg_bench_key_0123456789";
const CALL: KongRequest = { method: "GET", host: "shop.flowgate.localhost", pathWithQuery: "/customers/42?view=full", headers: { authorization: `Bearer ${KEY}`, accept: "application/json", "user-agent": "bench" } };
const CONCURRENCY = 8;

async function eventsPerSecond(harness: KongHarness, milliseconds: number): Promise<number> {
  let events = 0;
  const until = Date.now() + milliseconds;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        await harness.handle(CALL);
        events++;
      }
    }),
  );
  return (events / milliseconds) * 1000;
}

async function deployment(dataDir: string): Promise<void> {
  const store = await openStore({ dataDir });
  const revision = { method: "GET", template: "/customers/{id}", variableBar: { inputs: ["id"], outputs: ["id"] }, code: "export default ({ id }) => ({ id });", codePath: "customer.js", limits: DEFAULT_LIMITS, anonymous: false };
  // Enough other Workflows that routing has something to do.
  const others = Array.from({ length: 200 }, (_, index) => ({ ...revision, name: `other-${index}`, template: `/things-${index}/{id}`, allowOverlapWith: [] }));
  await store.apply({
    deployment: { baseDomains: { global: "flowgate.localhost", za: "za.flowgate.localhost" }, variableBarPrefix: "Fg" },
    sites: [
      {
        name: "shop",
        subdomain: "shop",
        region: "global",
        allowedOrigins: "*",
        environments: ["Production"],
        releaseManagement: false,
        authMethods: ["apiKey"],
        settings: {},
        outboundHosts: null,
        workflows: [{ ...revision, name: "customer", allowOverlapWith: [] }, ...others],
      },
    ],
    users: [],
    apiKeys: [{ site: "shop", name: "bench", environment: "Production", workflows: "*", disabled: false, primaryHash: hashApiKey(KEY), secondaryHash: null }],
  });
  await store.close();
}

export default async function plugin(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "flowgate-bench-plugin-"));
  await deployment(dataDir);
  const environment = { FLOWGATE_DATA_DIR: dataDir, FLOWGATE_DISPATCH_SECRET: randomBytes(32).toString("hex") };
  const flowgate = await KongHarness.start(0, environment);
  const sameCalls = await KongHarness.start(0, {}, { pluginDir: resolve(__dirname, "kong-plugins/same-calls"), plugin: "same-calls" });
  const empty = await KongHarness.start(0, {}, { pluginDir: resolve(__dirname, "kong-plugins/empty"), plugin: "empty" });
  try {
    const first = await flowgate.handle(CALL);
    if (!first.proxied) throw new Error(`flowgate refused the benchmark call: ${first.status} ${first.text}`);
    const roundTrips = first.pdkCalls.length;
    console.log(`PDK round trips for an API-key call, besides the final return: ${roundTrips} (${first.pdkCalls.join(", ")})`);
    for (const harness of [flowgate, sameCalls, empty]) await eventsPerSecond(harness, 500);

    const rates = { flowgate: [] as number[], sameCalls: [] as number[], empty: [] as number[] };
    for (let round = 0; round < 3; round++) {
      rates.flowgate.push(await eventsPerSecond(flowgate, 2000));
      rates.sameCalls.push(await eventsPerSecond(sameCalls, 2000));
      rates.empty.push(await eventsPerSecond(empty, 2000));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    const [ours, reference, floor] = [median(rates.flowgate), median(rates.sameCalls), median(rates.empty)];
    console.log(`events/s: flowgate ${Math.round(ours)}, same-calls reference ${Math.round(reference)}, empty access phase ${Math.round(floor)}`);
    console.log(`plugin-empty: ratio=${(ours / floor).toFixed(2)} (flowgate / empty access plugin, for information)`);
    console.log(`plugin-round-trips: ratio=${(roundTrips / 4).toFixed(2)} (PDK round trips per API-key call / the goal of 4)`);
    console.log(`plugin: ratio=${(ours / reference).toFixed(2)} (flowgate / same-calls reference)`);
  } finally {
    await Promise.all([flowgate.stop(), sameCalls.stop(), empty.stop()]);
  }
}
