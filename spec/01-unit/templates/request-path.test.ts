import { describe, expect, it } from "vitest";
import { splitRequestPath } from "../../../plugins/flowgate/templates/request-path";

function segments(path: string): readonly string[] {
  const result = splitRequestPath(path);
  if (!result.ok) throw new Error(result.problem);
  return result.segments;
}

describe("splitting a request path into decoded segments", () => {
  it("splits on slashes and ignores one trailing slash", () => {
    expect(segments("/reports/revenue/annual/2024")).toEqual(["reports", "revenue", "annual", "2024"]);
    expect(segments("/reports/revenue/")).toEqual(["reports", "revenue"]);
    expect(segments("/")).toEqual([]);
  });

  it("keeps interior empty segments, which no variable or literal matches", () => {
    expect(segments("/a//b")).toEqual(["a", "", "b"]);
    expect(segments("/a//")).toEqual(["a", ""]);
  });

  it("resolves dot segments before decoding, as Kong normalises paths", () => {
    expect(segments("/a/./b/../c")).toEqual(["a", "c"]);
    expect(segments("/../../a")).toEqual(["a"]);
    expect(segments("/a/%2E%2E/b")).toEqual(["a", "..", "b"]);
  });

  it("percent-decodes each segment on its own, so an encoded slash stays in its value", () => {
    expect(segments("/files/a%2Fb/caf%C3%A9")).toEqual(["files", "a/b", "café"]);
    expect(segments("/a+b")).toEqual(["a+b"]);
  });

  it("refuses malformed encodings and paths that are not absolute", () => {
    expect(splitRequestPath("/a/%zz")).toEqual({ ok: false, problem: 'path segment 2 ("%zz") has malformed percent-encoding or is not UTF-8' });
    expect(splitRequestPath("/a/%C3%28")).toMatchObject({ ok: false });
    expect(splitRequestPath("reports")).toEqual({ ok: false, problem: 'the request path "reports" does not start with "/"' });
  });
});
