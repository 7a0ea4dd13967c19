import { describe, expect, it } from "vitest";
import { matchPath } from "../../../plugins/flowgate/templates/template-match";
import { parseUriTemplate } from "../../../plugins/flowgate/templates/uri-template";
import { splitRequestPath } from "../../../plugins/flowgate/templates/request-path";

function match(templateText: string, path: string) {
  const template = parseUriTemplate(templateText);
  if (!template.ok) throw new Error(template.error.toString());
  const segments = splitRequestPath(path);
  if (!segments.ok) throw new Error(segments.problem);
  return matchPath(template.template, segments.segments);
}

describe("matching a template against a request path (WCF UriTemplate rules)", () => {
  it("binds the spec's path variable", () => {
    expect(match("/reports/revenue/annual/{year}", "/reports/revenue/annual/2024")).toEqual({ matched: true, variables: { year: "2024" } });
  });

  it("compares literals without case, and keeps the case of values", () => {
    expect(match("/Customers/{id}", "/cUSTOMERS/AbC")).toEqual({ matched: true, variables: { id: "AbC" } });
  });

  it("treats one trailing slash as insignificant on either side", () => {
    expect(match("/reports/revenue/", "/reports/revenue")).toMatchObject({ matched: true });
    expect(match("/reports/revenue", "/reports/revenue/")).toMatchObject({ matched: true });
  });

  it("passes percent-decoded values, an encoded slash included", () => {
    expect(match("/files/{name}", "/files/a%2Fb%20c")).toEqual({ matched: true, variables: { name: "a/b c" } });
    expect(match("/caf%C3%A9/{x}", "/CAFÉ/1")).toEqual({ matched: true, variables: { x: "1" } });
  });

  it("never binds an empty value to a variable", () => {
    expect(match("/a/{x}/b", "/a//b")).toEqual({ matched: false, reason: 'segment 2: empty, but variable "x" needs a value' });
  });

  it("splits compound segments as WCF does: the last variable takes the rest", () => {
    expect(match("/addresses/{state}.{city}", "/addresses/Washington.Redmond.Microsoft")).toEqual({
      matched: true,
      variables: { state: "Washington", city: "Redmond.Microsoft" },
    });
    expect(match("/{name}.jpg", "/photo.JPG")).toEqual({ matched: true, variables: { name: "photo" } });
    expect(match("/{name}.jpg", "/.jpg")).toEqual({ matched: false, reason: 'segment 1: ".jpg" does not have the shape "{name}.jpg"' });
  });

  it("matches zero or more trailing segments with a wildcard, binding the rest when it is named", () => {
    expect(match("/files/{*rest}", "/files/a/b%2Fc/d")).toEqual({ matched: true, variables: { rest: "a/b/c/d" } });
    expect(match("/files/{*rest}", "/files")).toEqual({ matched: true, variables: { rest: "" } });
    expect(match("/files/*", "/files/x")).toEqual({ matched: true, variables: {} });
    expect(match("/files/x/*", "/files")).toEqual({ matched: false, reason: "the template needs at least 2 path segments before its wildcard, the request has 1" });
  });

  it("says why a template does not match", () => {
    expect(match("/orders/{id}", "/customers/7")).toEqual({ matched: false, reason: 'segment 1: expected "orders", got "customers"' });
    expect(match("/orders/{id}", "/orders/7/lines")).toEqual({ matched: false, reason: "the template needs 2 path segments, the request has 3" });
    expect(match("/", "/x")).toEqual({ matched: false, reason: "the template needs 0 path segments, the request has 1" });
  });
});
