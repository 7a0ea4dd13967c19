// The routing table of one Site Environment: finds every binding that matches a request (spec: "Errors").
//
// A trie over path segments, one per method, so a lookup's cost follows the path's length and the few branches
// that can match it, not the number of bindings. It returns every match: the spec serves a request only when
// exactly one binding matches it, and answers "There is no service at this location." for none or several.

import type { Binding } from "./binding";
import { routedMethod } from "./binding";
import type { SegmentPattern } from "../templates/uri-template";
import { foldCase } from "../templates/uri-template";
import { splitRequestPath } from "../templates/request-path";
import { bindQueryVariables, parseQueryString } from "../templates/query-string";
import type { QueryParameters } from "../templates/query-string";
import { matchPath } from "../templates/template-match";

export type RouteLookup<W> =
  /** `variables` holds the path and query values for the Workflow's Variable Bar inputs. */
  | { readonly kind: "match"; readonly binding: Binding<W>; readonly variables: Record<string, string> }
  | { readonly kind: "no-service" }
  | { readonly kind: "ambiguous"; readonly bindings: readonly Binding<W>[] }
  | { readonly kind: "bad-request"; readonly problem: string };

interface CompoundEdge<W> {
  readonly key: string;
  readonly regex: RegExp;
  readonly node: TrieNode<W>;
}

class TrieNode<W> {
  literals: Map<string, TrieNode<W>> | null = null;
  variable: TrieNode<W> | null = null;
  compounds: CompoundEdge<W>[] | null = null;
  /** Bindings whose template ends at this node. */
  ends: Binding<W>[] | null = null;
  /** Bindings whose wildcard starts at this node: they match any rest of the path, even none. */
  wildcards: Binding<W>[] | null = null;

  /** The node below this one for a template segment, made on first use; equal segments share it. */
  child(segment: SegmentPattern): TrieNode<W> {
    switch (segment.kind) {
      case "literal": {
        const literals = (this.literals ??= new Map<string, TrieNode<W>>());
        const existing = literals.get(segment.key);
        if (existing) return existing;
        const created = new TrieNode<W>();
        literals.set(segment.key, created);
        return created;
      }
      case "variable":
        return (this.variable ??= new TrieNode<W>());
      case "compound": {
        const compounds = (this.compounds ??= []);
        const existing = compounds.find((edge) => edge.key === segment.key);
        if (existing) return existing.node;
        const created = new TrieNode<W>();
        compounds.push({ key: segment.key, regex: segment.regex, node: created });
        return created;
      }
    }
  }
}

export class RoutingTable<W> {
  private readonly roots = new Map<string, TrieNode<W>>();
  /** Each binding's place in the list given, so several matches come back in a stable order. */
  private readonly order = new Map<Binding<W>, number>();

  constructor(readonly bindings: readonly Binding<W>[]) {
    bindings.forEach((binding, index) => {
      this.order.set(binding, index);
      this.insert(binding);
    });
  }

  /** `query` is the raw query string, or its parameters when the caller has parsed it already. */
  lookup(method: string, rawPath: string, query: string | QueryParameters = ""): RouteLookup<W> {
    const path = splitRequestPath(rawPath);
    if (!path.ok) return { kind: "bad-request", problem: path.problem };
    const parsed = typeof query === "string" ? parseQueryString(query) : { ok: true as const, parameters: query };
    if (!parsed.ok) return { kind: "bad-request", problem: parsed.problem };
    return decideRoute(this.matchingBindings(method, path.segments), path.segments, parsed.parameters);
  }

  /** Every binding of the method whose template matches the decoded segments, in the order they were given. */
  matchingBindings(method: string, segments: readonly string[]): Binding<W>[] {
    const found: Binding<W>[] = [];
    const root = this.roots.get(routedMethod(method));
    if (root) collect(root, segments, 0, found);
    if (found.length > 1) found.sort((a, b) => this.order.get(a)! - this.order.get(b)!);
    return found;
  }

  private insert(binding: Binding<W>): void {
    let node = this.roots.get(binding.method);
    if (!node) {
      node = new TrieNode<W>();
      this.roots.set(binding.method, node);
    }
    for (const segment of binding.template.segments) node = node.child(segment);
    (binding.template.wildcard ? (node.wildcards ??= []) : (node.ends ??= [])).push(binding);
  }
}

function collect<W>(node: TrieNode<W>, segments: readonly string[], index: number, found: Binding<W>[]): void {
  if (node.wildcards) found.push(...node.wildcards);
  if (index === segments.length) {
    if (node.ends) found.push(...node.ends);
    return;
  }
  const segment = segments[index]!;
  if (node.literals) {
    let child = node.literals.get(segment);
    if (!child) {
      const folded = foldCase(segment);
      if (folded !== segment) child = node.literals.get(folded);
    }
    if (child) collect(child, segments, index + 1, found);
  }
  // Variables, including those in compound segments, need at least one character.
  if (segment === "") return;
  if (node.variable) collect(node.variable, segments, index + 1, found);
  if (node.compounds) {
    for (const edge of node.compounds) if (edge.regex.test(segment)) collect(edge.node, segments, index + 1, found);
  }
}

/**
 * The spec's rule for what a request gets from the bindings that match it: exactly one is served, with its path and
 * query variables; none, or several, is "There is no service at this location." and neither is served.
 */
export function decideRoute<W>(matched: readonly Binding<W>[], segments: readonly string[], query: QueryParameters): RouteLookup<W> {
  if (matched.length === 0) return { kind: "no-service" };
  if (matched.length > 1) return { kind: "ambiguous", bindings: matched };
  const binding = matched[0]!;
  const path = matchPath(binding.template, segments);
  if (!path.matched) throw new Error(`routing table and template disagree on "${binding.template.text}": ${path.reason}`);
  if (binding.template.query.length === 0) return { kind: "match", binding, variables: path.variables };
  const bound = bindQueryVariables(binding.template, query);
  if (!bound.ok) return { kind: "bad-request", problem: bound.problem };
  return { kind: "match", binding, variables: { ...path.variables, ...bound.variables } };
}
