import { describe, expect, it } from "vitest";
import { RoutingTable } from "../../../plugins/flowgate/routing/routing-table";
import { binding } from "./bindings";

describe("the routing table answers with every matching binding", () => {
  const annual = binding("GET", "/reports/revenue/annual/{year}", "annual-revenue");
  const named = binding("GET", "/reports/revenue/?name={reportName}", "named-report");
  const customer = binding("GET", "/customers/{id}", "customer");
  const anyObject = binding("GET", "/{object}/{id}", "any-object");
  const order = binding("GET", "/orders/{id}", "order");
  const createOrder = binding("POST", "/orders", "create-order");
  const table = new RoutingTable([annual, named, order, createOrder]);
  const overlapping = new RoutingTable([customer, anyObject, order]);

  it("serves the spec's path variable example", () => {
    expect(table.lookup("GET", "/reports/revenue/annual/2024")).toEqual({ kind: "match", binding: annual, variables: { year: "2024" } });
  });

  it("serves the spec's query variable example, with or without the trailing slash", () => {
    const expected = { kind: "match", binding: named, variables: { reportName: "Annual Revenue" } };
    expect(table.lookup("GET", "/reports/revenue/", "name=Annual+Revenue")).toEqual(expected);
    expect(table.lookup("GET", "/reports/revenue", "name=Annual%20Revenue&_profile=Test")).toEqual(expected);
  });

  it("serves neither of two overlapping bindings: the match is ambiguous", () => {
    const result = overlapping.lookup("GET", "/customers/42");
    expect(result.kind).toBe("ambiguous");
    expect(result.kind === "ambiguous" && result.bindings.map((found) => found.workflow).sort()).toEqual(["any-object", "customer"]);
  });

  it("also finds the overlap of /orders/{id} with /{object}/{id}: templates must be mutually exclusive", () => {
    expect(overlapping.lookup("GET", "/orders/7").kind).toBe("ambiguous");
    expect(table.lookup("GET", "/orders/7")).toEqual({ kind: "match", binding: order, variables: { id: "7" } });
    expect(overlapping.lookup("GET", "/invoices/7")).toEqual({ kind: "match", binding: anyObject, variables: { object: "invoices", id: "7" } });
  });

  it("answers no service for an unknown path or an unbound method", () => {
    expect(table.lookup("GET", "/reports")).toEqual({ kind: "no-service" });
    expect(table.lookup("DELETE", "/orders")).toEqual({ kind: "no-service" });
    expect(table.lookup("POST", "/orders/")).toEqual({ kind: "match", binding: createOrder, variables: {} });
  });

  it("answers HEAD from the GET binding", () => {
    expect(table.lookup("HEAD", "/reports/revenue/annual/2024")).toMatchObject({ kind: "match", binding: annual });
  });

  it("calls a malformed path or query a bad request instead of guessing", () => {
    expect(table.lookup("GET", "/reports/%zz")).toEqual({ kind: "bad-request", problem: 'path segment 2 ("%zz") has malformed percent-encoding or is not UTF-8' });
    expect(table.lookup("GET", "/reports/revenue", "name=%FF")).toEqual({ kind: "bad-request", problem: 'query parameter "name" has malformed percent-encoding or is not UTF-8' });
    expect(table.lookup("GET", "/reports/revenue", "name=a&name=b").kind).toBe("bad-request");
  });

  it("lets a wildcard match alongside other templates, never hiding the ambiguity", () => {
    const files = binding("GET", "/files/{*path}", "files");
    const readme = binding("GET", "/files/readme", "readme");
    const withFiles = new RoutingTable([files, readme]);
    expect(withFiles.lookup("GET", "/files/a/b")).toEqual({ kind: "match", binding: files, variables: { path: "a/b" } });
    expect(withFiles.lookup("GET", "/files")).toEqual({ kind: "match", binding: files, variables: { path: "" } });
    expect(withFiles.lookup("GET", "/files/README").kind).toBe("ambiguous");
  });

  it("matches compound segments beside literal and variable ones", () => {
    const image = binding("GET", "/images/{name}.{ext}", "image");
    const thumbnail = binding("GET", "/images/{name}.thumb", "thumbnail");
    const images = new RoutingTable([image, thumbnail]);
    expect(images.lookup("GET", "/images/cat.png")).toEqual({ kind: "match", binding: image, variables: { name: "cat", ext: "png" } });
    expect(images.lookup("GET", "/images/cat.thumb").kind).toBe("ambiguous");
    expect(images.lookup("GET", "/images/cat").kind).toBe("no-service");
  });
});
