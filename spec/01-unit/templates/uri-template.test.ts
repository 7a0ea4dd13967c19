import { describe, expect, it } from "vitest";
import { parseUriTemplate } from "../../../plugins/flowgate/templates/uri-template";
import type { UriTemplate } from "../../../plugins/flowgate/templates/uri-template";

function parsed(text: string): UriTemplate {
  const result = parseUriTemplate(text);
  if (!result.ok) throw new Error(result.error.toString());
  return result.template;
}

function refusal(text: string): string {
  const result = parseUriTemplate(text);
  if (result.ok) throw new Error(`expected "${text}" to be refused`);
  return result.error.toString();
}

describe("parsing the spec's templates", () => {
  it("reads a path variable", () => {
    const template = parsed("/reports/revenue/annual/{year}");
    expect(template.segments).toEqual([
      { kind: "literal", text: "reports", key: "reports" },
      { kind: "literal", text: "revenue", key: "revenue" },
      { kind: "literal", text: "annual", key: "annual" },
      { kind: "variable", name: "year" },
    ]);
    expect(template.variables).toEqual(["year"]);
    expect(template.query).toEqual([]);
    expect(template.wildcard).toBeNull();
  });

  it("reads a query variable with a static key, and ignores the trailing slash before it", () => {
    const template = parsed("/reports/revenue/?name={reportName}");
    expect(template.segments.map((segment) => segment.kind)).toEqual(["literal", "literal"]);
    expect(template.query).toEqual([{ key: "name", foldedKey: "name", name: "reportName" }]);
    expect(template.variables).toEqual(["reportName"]);
  });

  it("reads the root template", () => {
    expect(parsed("/").segments).toEqual([]);
  });
});

describe("compound segments and wildcards (WCF UriTemplate)", () => {
  it("reads literal text and variables in one segment", () => {
    const [segment] = parsed("/{name}.{ext}").segments;
    expect(segment).toMatchObject({
      kind: "compound",
      parts: [
        { kind: "variable", name: "name" },
        { kind: "literal", text: "." },
        { kind: "variable", name: "ext" },
      ],
    });
  });

  it("reads an anonymous and a named trailing wildcard", () => {
    expect(parsed("/files/*").wildcard).toEqual({ name: null });
    const named = parsed("/files/{*rest}");
    expect(named.wildcard).toEqual({ name: "rest" });
    expect(named.variables).toEqual(["rest"]);
  });

  it("decodes percent-encoded literals", () => {
    expect(parsed("/caf%C3%A9/a%2Ab").segments).toEqual([
      { kind: "literal", text: "café", key: "café" },
      { kind: "literal", text: "a*b", key: "a*b" },
    ]);
  });

  it("folds the case of literals and query keys for comparison, keeping the text as written", () => {
    const template = parsed("/Reports/{id}?Name={name}");
    expect(template.segments[0]).toEqual({ kind: "literal", text: "Reports", key: "reports" });
    expect(template.query[0]).toEqual({ key: "Name", foldedKey: "name", name: "name" });
  });
});

describe("refusing malformed templates with the position and the fix", () => {
  const cases: [string, string][] = [
    ["reports/{year}", 'column 1: a URI template must start with "/". Fix: write "/reports/{year}"'],
    ["", "column 1: a URI template must start with"],
    ["/reports/{year", 'column 10: a "{" is not closed in its segment'],
    ["/reports/{ye{ar}", 'column 10: a "{" is not closed'],
    ["/reports/year}", 'column 14: a "}" has no matching "{"'],
    ["/reports/{}", "column 10: a variable has no name"],
    ["/reports/{1year}", 'column 10: "1year" is not a valid variable name'],
    ["/reports/{ye ar}", '"ye ar" is not a valid variable name'],
    ["/reports/{year=2020}", "has a default value, which Flowgate does not support"],
    ["/{a}/{A}", 'column 6: variable "A" is used twice (first at column 2'],
    ["/{a}?x={a}", 'column 8: variable "a" is used twice'],
    ["/{name}{ext}", "column 8: two variables stand side by side"],
    ["/reports//annual", 'column 10: the path has an empty segment ("//")'],
    ["//", 'column 2: the path has an empty segment ("//")'],
    ["/a/../b", 'column 4: ".." segments are resolved away before matching'],
    ["/files/*/more", "column 9: a wildcard must be the last path segment"],
    ["/files/a*", 'column 9: "*" is only allowed as a whole last segment'],
    ["/files/x{*rest}", "column 9: a wildcard must be a whole path segment"],
    ["/a b", 'column 3: the character " " cannot stand in a URI path'],
    ["/a#b", 'column 3: the character "#" cannot stand'],
    ["/a%zz", 'column 3: a "%" does not start a percent-encoding'],
    ["/a%C3%28", "column 3: the percent-encoded bytes are not valid UTF-8"],
    ["/a?", 'column 3: the template ends with "?" but has no query part'],
    ["/a?x={x}&", "column 10: the query part has an empty component"],
    ["/a?x={x}&&y={y}", "column 10: the query part has an empty component"],
    ["/a?x", 'column 4: query component "x" is not of the form key={variable}'],
    ["/a?={x}", 'query component "={x}" is not of the form key={variable}. Fix: write it as name={variableName}'],
    ["/a?x=2", 'column 6: query component "x=2" has a fixed value; the query part only binds values and never selects between routes. Fix: bind it to a Variable Bar input (x={x}) or remove it'],
    ["/a?{k}={v}", 'query key "{k}" is a variable, but keys are static'],
    ["/a?auth={token}", 'query key "auth" is reserved by the service'],
    ["/a?_Profile={p}", 'query key "_Profile" is reserved'],
    ["/a?auth-key={k}", 'query key "auth-key" is reserved'],
    ["/a?x={x}&X={y}", 'column 10: query key "X" appears twice'],
    ["/a?x={*x}", "a wildcard cannot stand in the query part"],
  ];
  it.each(cases)("%s", (text, expected) => {
    const message = refusal(text);
    expect(message).toContain(`URI template "${text}"`);
    expect(message).toContain(expected);
  });
});
