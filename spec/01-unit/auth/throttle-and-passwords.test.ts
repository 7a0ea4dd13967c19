import { describe, expect, it, vi } from "vitest";
import { FailureThrottle } from "../../../plugins/flowgate/auth/throttle";
import { PasswordCheck } from "../../../plugins/flowgate/auth/password-check";
import * as secretHash from "../../../plugins/flowgate/auth/secret-hash";

// Counts the memory-hard verifications the password check really makes.
vi.mock("../../../plugins/flowgate/auth/secret-hash", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../plugins/flowgate/auth/secret-hash")>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});
const { hashPassword } = secretHash;
const verifications = () => vi.mocked(secretHash.verifyPassword).mock.calls.length;

describe("the failure throttle", () => {
  const limits = { perUserAndAddress: 3, perAddress: 10, windowMs: 60_000, maxLockMs: 8_000, maxTracked: 1000 };

  it("locks a user at one address after too many failures, for a while that grows up to a cap", () => {
    let now = 0;
    const throttle = new FailureThrottle(limits, () => now);
    for (let attempt = 0; attempt < 3; attempt++) throttle.recordFailure("alice", "198.51.100.7");
    expect(throttle.retryAfter("alice", "198.51.100.7")).toBeNull();
    throttle.recordFailure("alice", "198.51.100.7");
    expect(throttle.retryAfter("alice", "198.51.100.7")).toBe(1);
    // Another address is not locked out by the attacker's failures.
    expect(throttle.retryAfter("alice", "203.0.113.5")).toBeNull();
    const locks: number[] = [];
    for (let round = 0; round < 5; round++) {
      now += 10_000;
      for (let attempt = 0; attempt < 4; attempt++) throttle.recordFailure("alice", "198.51.100.7");
      locks.push(throttle.retryAfter("alice", "198.51.100.7")!);
    }
    expect(locks).toEqual([2, 4, 8, 8, 8]);
  });

  it("locks an address that tries many users", () => {
    const throttle = new FailureThrottle(limits, () => 0);
    for (let user = 0; user < 11; user++) throttle.recordFailure(`user${user}`, "198.51.100.9");
    expect(throttle.retryAfter("anyone", "198.51.100.9")).toBe(1);
  });

  it("counts attempts sent all at once before any is checked", () => {
    const throttle = new FailureThrottle(limits, () => 0);
    const allowed = Array.from({ length: 20 }, () => throttle.beginAttempt("carol", "198.51.100.3")).filter((wait) => wait === null);
    expect(allowed).toHaveLength(3);
  });

  it("forgets a user's failures at one address after a success", () => {
    const throttle = new FailureThrottle(limits, () => 0);
    for (let attempt = 0; attempt < 3; attempt++) throttle.recordFailure("bob", "198.51.100.1");
    throttle.recordSuccess("bob", "198.51.100.1");
    throttle.recordFailure("bob", "198.51.100.1");
    expect(throttle.retryAfter("bob", "198.51.100.1")).toBeNull();
  });
});

describe("the password check", () => {
  it("verifies once, then answers from its cache until the entry ages out, and never for another password", async () => {
    let now = 0;
    const user = { name: "alice", passwordHash: await hashPassword("right"), sites: "*" as const };
    const check = new PasswordCheck({ now: () => now, cacheTtlMs: 1000 });
    const before = verifications();
    expect(await check.check("alice", "right", user, "192.0.2.1")).toEqual({ kind: "ok" });
    expect(await check.check("alice", "right", user, "192.0.2.1")).toEqual({ kind: "ok" });
    expect(verifications() - before).toBe(1);
    expect(await check.check("alice", "wrong", user, "192.0.2.1")).toEqual({ kind: "wrong" });
    expect(verifications() - before).toBe(2);
    now += 2000;
    expect(await check.check("alice", "right", user, "192.0.2.1")).toEqual({ kind: "ok" });
    expect(verifications() - before).toBe(3);
    expect(await check.check("alice", "right", { ...user, passwordHash: await hashPassword("changed") }, "192.0.2.1")).toEqual({ kind: "wrong" });
  });

  it("lets no more guesses through when they arrive together than one after another", async () => {
    const user = { name: "dave", passwordHash: await hashPassword("right"), sites: "*" as const };
    const check = new PasswordCheck({ throttle: new FailureThrottle({ perUserAndAddress: 3, perAddress: 100, windowMs: 60_000, maxLockMs: 60_000, maxTracked: 100 }) });
    const before = verifications();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, guess) => check.check("dave", `guess-${guess}`, user, "192.0.2.9")));
    expect(answers.filter((answer) => answer.kind === "wrong")).toHaveLength(3);
    expect(answers.filter((answer) => answer.kind === "throttled")).toHaveLength(9);
    expect(verifications() - before).toBe(3);
  });

  it("answers an unknown user as a wrong password after a verification of the same cost, and throttles both", async () => {
    const before = verifications();
    const check = new PasswordCheck({ throttle: new FailureThrottle({ perUserAndAddress: 1, perAddress: 100, windowMs: 60_000, maxLockMs: 60_000, maxTracked: 100 }) });
    expect(await check.check("nobody", "x", undefined, "192.0.2.2")).toEqual({ kind: "wrong" });
    expect(verifications() - before).toBe(1);
    expect(await check.check("nobody", "x", undefined, "192.0.2.2")).toEqual({ kind: "throttled", retryAfterSeconds: 1 });
    expect(verifications() - before).toBe(1);
  });
});
