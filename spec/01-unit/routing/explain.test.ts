import { describe, expect, it } from "vitest";
import { explainRequest } from "../../../plugins/flowgate/routing/explain";
import { binding } from "./bindings";

describe("explaining a routing decision", () => {
  const bindings = [
    binding("GET", "/reports/revenue/annual/{year}", "annual"),
    binding("GET", "/reports/revenue/?name={reportName}", "named"),
    binding("POST", "/reports/revenue/annual/{year}", "post-annual"),
    binding("GET", "/customers/{id}", "customer"),
    binding("GET", "/{object}/{id}", "any"),
  ];

  it("gives each binding's reason, and the variables of the one served", () => {
    const explanation = explainRequest(bindings, "GET", "/reports/revenue/annual/2024");
    expect(explanation.outcome).toMatchObject({ kind: "match", binding: { workflow: "annual" }, variables: { year: "2024" } });
    expect(explanation.candidates.map(({ binding, matched, reason }) => [binding.workflow, matched, reason])).toEqual([
      ["annual", true, 'matches, binding year="2024"'],
      ["named", false, "the template needs 2 path segments, the request has 4"],
      ["post-annual", false, "method: the binding is POST, the request is GET"],
      ["customer", false, "the template needs 2 path segments, the request has 4"],
      ["any", false, "the template needs 2 path segments, the request has 4"],
    ]);
  });

  it("binds query variables of the one served", () => {
    const explanation = explainRequest(bindings.slice(0, 2), "GET", "/reports/revenue", "name=Q1");
    expect(explanation.outcome).toMatchObject({ kind: "match", binding: { workflow: "named" }, variables: { reportName: "Q1" } });
  });

  it("shows both candidates of an ambiguous match", () => {
    const explanation = explainRequest(bindings, "GET", "/customers/42");
    expect(explanation.outcome.kind).toBe("ambiguous");
    expect(explanation.candidates.filter((candidate) => candidate.matched).map((candidate) => [candidate.binding.workflow, candidate.reason])).toEqual([
      ["customer", 'matches, binding id="42"'],
      ["any", 'matches, binding object="customers", id="42"'],
    ]);
  });

  it("says why a literal differs, and calls a malformed request bad", () => {
    const explanation = explainRequest(bindings.slice(0, 1), "GET", "/reports/costs/annual/2024");
    expect(explanation.candidates[0]!.reason).toBe('segment 2: expected "revenue", got "costs"');
    expect(explainRequest(bindings, "GET", "/%E2").outcome).toEqual({ kind: "bad-request", problem: 'path segment 1 ("%E2") has malformed percent-encoding or is not UTF-8' });
  });
});
