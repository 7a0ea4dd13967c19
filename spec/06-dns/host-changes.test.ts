import { describe, expect, it } from "vitest";
import { orderHostChanges } from "../../dns/dns-provider";

describe("ordering one apply's DNS changes", () => {
  it("keeps a name that a renamed Site takes over from a removed one", () => {
    expect(
      orderHostChanges([
        { kind: "publish", site: "acme-corp", host: "acme.example", previous: null },
        { kind: "remove", site: "acme", host: "acme.example" },
      ]),
    ).toEqual([{ kind: "publish", site: "acme-corp", host: "acme.example", previous: null }]);
  });

  it("lets two Sites swap names without clearing each other's new record", () => {
    expect(
      orderHostChanges([
        { kind: "publish", site: "a", host: "b.example", previous: "a.example" },
        { kind: "publish", site: "b", host: "a.example", previous: "b.example" },
      ]),
    ).toEqual([
      { kind: "publish", site: "a", host: "b.example", previous: null },
      { kind: "publish", site: "b", host: "a.example", previous: null },
    ]);
  });

  it("removes before it adds", () => {
    expect(
      orderHostChanges([
        { kind: "publish", site: "new", host: "new.example", previous: "old.example" },
        { kind: "remove", site: "gone", host: "gone.example" },
      ]).map((change) => change.kind),
    ).toEqual(["remove", "publish"]);
  });
});
