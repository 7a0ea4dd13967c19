import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RoutingTable } from "../../../plugins/flowgate/routing/routing-table";
import { explainRequest } from "../../../plugins/flowgate/routing/explain";
import { commonPath, encodePathSegment, findOverlaps } from "../../../plugins/flowgate/routing/overlap";
import { splitRequestPath } from "../../../plugins/flowgate/templates/request-path";
import { bindingArbitrary, bindingsArbitrary, requestMethod, requestSegments } from "./generators";
import { referenceMatches } from "./reference-matcher";

const RUNS = { numRuns: 500 };

function workflows(bindings: readonly { workflow: number }[]): number[] {
  return bindings.map((binding) => binding.workflow).sort((a, b) => a - b);
}

/** The raw path whose decoded segments are `segments`: a last empty segment needs a slash after it. */
function asPath(segments: readonly string[]): string {
  return "/" + segments.map(encodePathSegment).join("/") + (segments[segments.length - 1] === "" ? "/" : "");
}

describe("the trie agrees with the simple reference matcher", () => {
  it("finds the same set of bindings for any templates and any path", () => {
    fc.assert(
      fc.property(bindingsArbitrary, requestMethod, requestSegments, (bindings, method, segments) => {
        const table = new RoutingTable(bindings);
        expect(workflows(table.matchingBindings(method, segments))).toEqual(workflows(referenceMatches(bindings, method, segments)));
      }),
      RUNS,
    );
  });

  it("gives the same answer through a raw, percent-encoded path", () => {
    fc.assert(
      fc.property(bindingsArbitrary, requestMethod, requestSegments, (bindings, method, segments) => {
        const expected = referenceMatches(bindings, method, segments);
        const result = new RoutingTable(bindings).lookup(method, asPath(segments));
        const kind = expected.length === 0 ? "no-service" : expected.length === 1 ? "match" : "ambiguous";
        expect(result.kind).toBe(kind);
      }),
      RUNS,
    );
  });

  it("and explain gives exactly the routing table's answer", () => {
    fc.assert(
      fc.property(bindingsArbitrary, requestMethod, requestSegments, (bindings, method, segments) => {
        const path = asPath(segments);
        const explanation = explainRequest(bindings, method, path);
        expect(explanation.outcome).toEqual(new RoutingTable(bindings).lookup(method, path));
        const decoded = splitRequestPath(path);
        expect(decoded.ok).toBe(true);
        if (decoded.ok) {
          const matched = explanation.candidates.filter((candidate) => candidate.matched).map((candidate) => candidate.binding);
          expect(workflows(matched)).toEqual(workflows(referenceMatches(bindings, method, decoded.segments)));
        }
      }),
      RUNS,
    );
  });
});

describe("overlap analysis is exact", () => {
  it("gives an example path that both templates really match", () => {
    fc.assert(
      fc.property(bindingArbitrary, bindingArbitrary, (first, second) => {
        const example = commonPath(first.template, second.template);
        fc.pre(example !== null);
        const decoded = splitRequestPath(example!);
        expect(decoded.ok).toBe(true);
        if (!decoded.ok) return;
        const both = [{ ...first, method: "GET" as const, workflow: 1 }, { ...second, method: "GET" as const, workflow: 2 }];
        expect(workflows(referenceMatches(both, "GET", decoded.segments))).toEqual([1, 2]);
      }),
      { numRuns: 2000 },
    );
  });

  it("never misses an overlap that some path reveals", () => {
    fc.assert(
      fc.property(bindingArbitrary, bindingArbitrary, requestSegments, (first, second, segments) => {
        const both = [{ ...first, method: "GET" as const, workflow: 1 }, { ...second, method: "GET" as const, workflow: 2 }];
        fc.pre(referenceMatches(both, "GET", segments).length === 2);
        expect(commonPath(first.template, second.template)).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("lists exactly the pairs of the same method that overlap", () => {
    fc.assert(
      fc.property(bindingsArbitrary, (bindings) => {
        const listed = findOverlaps(bindings).map(({ first, second }) => [first.workflow, second.workflow].sort((a, b) => a - b).join("~"));
        const expected: string[] = [];
        for (let i = 0; i < bindings.length; i++) {
          for (let j = i + 1; j < bindings.length; j++) {
            const a = bindings[i]!;
            const b = bindings[j]!;
            if (a.method === b.method && commonPath(a.template, b.template) !== null) expected.push(`${a.workflow}~${b.workflow}`);
          }
        }
        expect(listed.sort()).toEqual(expected.sort());
      }),
      RUNS,
    );
  });
});
