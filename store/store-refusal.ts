// A store operation refused for a reason the person asking can fix; `kind` lets the CLI choose its exit code.

export class StoreRefusal extends Error {
  constructor(
    readonly kind: "not-found" | "conflict",
    message: string,
  ) {
    super(message);
  }
}
