import { describe, expect, it } from "vitest";
import { findOverlaps } from "../../../plugins/flowgate/routing/overlap";
import { binding } from "./bindings";

function overlaps(...bindings: ReturnType<typeof binding>[]) {
  return findOverlaps(bindings).map(({ first, second, examplePath }) => `${first.workflow} ~ ${second.workflow} at ${examplePath}`);
}

describe("overlap analysis lists the pairs some request would match both of", () => {
  it("finds the spec's overlapping pair, with a path that hits both", () => {
    expect(overlaps(binding("GET", "/customers/{id}", "customer"), binding("GET", "/{object}/{id}", "any"))).toEqual(["customer ~ any at /customers/id"]);
  });

  it("knows that methods separate bindings, and static first segments keep templates apart", () => {
    expect(overlaps(binding("GET", "/orders/{id}", "order"), binding("POST", "/{a}/{b}", "post"))).toEqual([]);
    expect(overlaps(binding("GET", "/orders/{id}", "order"), binding("GET", "/customers/{id}", "customer"))).toEqual([]);
  });

  it("compares literals without case and ignores the query part and trailing slash", () => {
    expect(overlaps(binding("GET", "/Reports/revenue/?name={a}", "one"), binding("GET", "/reports/REVENUE", "two"))).toEqual(["one ~ two at /Reports/revenue"]);
  });

  it("finds overlaps through compound segments and wildcards", () => {
    expect(overlaps(binding("GET", "/images/{name}.{ext}", "image"), binding("GET", "/images/{n}.thumb", "thumb"))).toEqual(["image ~ thumb at /images/x.thumb"]);
    expect(overlaps(binding("GET", "/images/{name}.png", "png"), binding("GET", "/images/{n}.jpg", "jpg"))).toEqual([]);
    expect(overlaps(binding("GET", "/files/*", "all"), binding("GET", "/files/{a}/{b}", "two"))).toEqual(["all ~ two at /files/a/b"]);
    expect(overlaps(binding("GET", "/files/{*rest}", "all"), binding("GET", "/files", "root"))).toEqual(["all ~ root at /files"]);
    expect(overlaps(binding("GET", "/files/a/*", "a"), binding("GET", "/files/b/*", "b"))).toEqual([]);
  });

  it("compares templates that open with a variable or wildcard against every group, and literal groups only within", () => {
    const listed = overlaps(
      binding("GET", "/", "root"),
      binding("GET", "/*", "everything"),
      binding("GET", "/orders/{id}", "order"),
      binding("GET", "/customers/{id}", "customer"),
      binding("GET", "/{object}/{id}", "any"),
    );
    expect(listed).toEqual([
      "root ~ everything at /",
      "everything ~ order at /orders/id",
      "everything ~ customer at /customers/id",
      "everything ~ any at /object/id",
      "order ~ any at /orders/id",
      "customer ~ any at /customers/id",
    ]);
  });
});
