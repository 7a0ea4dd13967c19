// Explains a routing decision: for one request, each binding with why it matched or did not (`flowgate explain`).

import type { Binding } from "./binding";
import { routedMethod } from "./binding";
import { matchPath } from "../templates/template-match";
import { splitRequestPath } from "../templates/request-path";
import { parseQueryString } from "../templates/query-string";
import type { RouteLookup } from "./routing-table";
import { decideRoute } from "./routing-table";

export interface CandidateExplanation<W> {
  readonly binding: Binding<W>;
  readonly matched: boolean;
  /** Why it did not match, or the path variables it binds when it did. */
  readonly reason: string;
}

export interface Explanation<W> {
  /** The same answer the routing table gives for this request. */
  readonly outcome: RouteLookup<W>;
  /** Every binding of the Site Environment, in the order given. Empty when the request itself is malformed. */
  readonly candidates: readonly CandidateExplanation<W>[];
}

export function explainRequest<W>(bindings: readonly Binding<W>[], method: string, rawPath: string, rawQuery = ""): Explanation<W> {
  const path = splitRequestPath(rawPath);
  if (!path.ok) return { outcome: { kind: "bad-request", problem: path.problem }, candidates: [] };
  const query = parseQueryString(rawQuery);
  if (!query.ok) return { outcome: { kind: "bad-request", problem: query.problem }, candidates: [] };

  const routed = routedMethod(method);
  const candidates = bindings.map((binding): CandidateExplanation<W> => {
    if (binding.method !== routed) {
      return { binding, matched: false, reason: `method: the binding is ${binding.method}, the request is ${method}` };
    }
    const match = matchPath(binding.template, path.segments);
    if (!match.matched) return { binding, matched: false, reason: match.reason };
    const bound = Object.entries(match.variables).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
    return { binding, matched: true, reason: bound.length ? `matches, binding ${bound.join(", ")}` : "matches" };
  });
  const matched = candidates.filter((candidate) => candidate.matched).map((candidate) => candidate.binding);
  return { outcome: decideRoute(matched, path.segments, query.parameters), candidates };
}
