// Routing: Flowgate's all-matches lookup against find-my-way's single-match find(), on the same templates and paths.

import FindMyWay from "find-my-way";
import type { Binding } from "../plugins/flowgate/routing/binding";
import { RoutingTable } from "../plugins/flowgate/routing/routing-table";
import { parseUriTemplate } from "../plugins/flowgate/templates/uri-template";
import { compareThroughput, formatRate } from "./measure";

/** A small seeded generator, so every run measures the same templates. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Route {
  /** Segments: a literal, or null for a variable. */
  readonly shape: (string | null)[];
}

function generateRoutes(count: number, next: () => number): Route[] {
  const words = Array.from({ length: 400 }, () => Array.from({ length: 3 + Math.floor(next() * 6) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join(""));
  const pick = () => words[Math.floor(next() * words.length)]!;
  const seen = new Set<string>();
  const routes: Route[] = [];
  while (routes.length < count) {
    const depth = 2 + Math.floor(next() * 4);
    // Mixed literal and variable segments; the first is always literal, as the spec advises for exclusive templates.
    const shape = Array.from({ length: depth }, (_, index) => (index > 0 && next() < 0.35 ? null : pick()));
    const key = shape.map((segment) => segment ?? ":").join("/");
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ shape });
  }
  return routes;
}

function requestPath(route: Route, next: () => number): string {
  return "/" + route.shape.map((segment) => segment ?? String(Math.floor(next() * 100000))).join("/");
}

function measure(count: number): void {
  const next = random(count);
  const routes = generateRoutes(count, next);
  const bindings: Binding<number>[] = routes.map((route, index) => {
    let variable = 0;
    const text = "/" + route.shape.map((segment) => segment ?? `{v${variable++}}`).join("/");
    const parsed = parseUriTemplate(text);
    if (!parsed.ok) throw new Error(parsed.error.toString());
    return { method: "GET", template: parsed.template, workflow: index };
  });
  const table = new RoutingTable(bindings);
  const router = FindMyWay();
  routes.forEach((route, index) => {
    let variable = 0;
    router.on("GET", "/" + route.shape.map((segment) => segment ?? `:v${variable++}`).join("/"), () => index);
  });

  const paths = Array.from({ length: 2000 }, () => requestPath(routes[Math.floor(next() * routes.length)]!, next));
  let served = 0;
  for (const path of paths) if (table.lookup("GET", path).kind === "match") served++;
  for (const path of paths) if (!router.find("GET", path)) throw new Error(`find-my-way found no route for ${path}`);

  const [ours, theirs] = compareThroughput(
    [
      { name: "flowgate lookup (all matches)", run: (index) => table.lookup("GET", paths[index]!) },
      { name: "find-my-way find (first match)", run: (index) => router.find("GET", paths[index]!) },
    ],
    paths.length,
  );
  console.log(`${count} templates, ${paths.length} paths (${served} served by exactly one binding, the rest ambiguous)`);
  console.log(`  ${ours!.name}: ${formatRate(ours!.perSecond)}`);
  console.log(`  ${theirs!.name}: ${formatRate(theirs!.perSecond)}`);
  console.log(`routing-${count}: ratio=${(ours!.perSecond / theirs!.perSecond).toFixed(2)} (flowgate all-matches lookups/s over find-my-way find()/s)`);
}

export default function routing(): void {
  measure(1000);
  measure(10000);
}
