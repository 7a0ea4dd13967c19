import { describe, expect, it } from "vitest";
import { bindQueryVariables, parseQueryString } from "../../../plugins/flowgate/templates/query-string";
import type { QueryParameters } from "../../../plugins/flowgate/templates/query-string";
import { parseUriTemplate } from "../../../plugins/flowgate/templates/uri-template";

function parameters(raw: string): QueryParameters {
  const result = parseQueryString(raw);
  if (!result.ok) throw new Error(result.problem);
  return result.parameters;
}

function template(text: string) {
  const result = parseUriTemplate(text);
  if (!result.ok) throw new Error(result.error.toString());
  return result.template;
}

describe("parsing a query string", () => {
  it("decodes keys and values, reads + as a space and folds key case", () => {
    expect([...parameters("Name=Annual+Revenue&x=%E2%82%AC&flag&&empty=")]).toEqual([
      ["name", ["Annual Revenue"]],
      ["x", ["€"]],
      ["flag", [""]],
      ["empty", [""]],
    ]);
  });

  it("keeps every value of a repeated key, in order", () => {
    expect(parameters("a=1&A=2").get("a")).toEqual(["1", "2"]);
  });

  it("refuses malformed encoding, naming the parameter", () => {
    expect(parseQueryString("ok=1&bad=%E2%82")).toEqual({ ok: false, problem: 'query parameter "bad" has malformed percent-encoding or is not UTF-8' });
  });
});

describe("binding query variables (WCF: the query binds, it never selects)", () => {
  const revenue = template("/reports/revenue/?name={reportName}&year={year}");

  it("sets each Variable Bar input from its static key, without regard to key case", () => {
    expect(bindQueryVariables(revenue, parameters("NAME=Annual&year=2024&unrelated=1"))).toEqual({
      ok: true,
      variables: { reportName: "Annual", year: "2024" },
    });
  });

  it("leaves an input unset when its parameter is not sent", () => {
    expect(bindQueryVariables(revenue, parameters("name=Annual"))).toEqual({ ok: true, variables: { reportName: "Annual" } });
  });

  it("refuses a bound parameter sent twice rather than picking one", () => {
    expect(bindQueryVariables(revenue, parameters("name=a&name=b"))).toEqual({
      ok: false,
      problem: 'query parameter "name" was sent 2 times, but it binds the single value of "reportName"',
    });
  });
});
