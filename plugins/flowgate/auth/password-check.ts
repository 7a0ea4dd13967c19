// Checks a user's password for Basic authentication and the session-token endpoint: throttled, constant in time
// whether the user exists or not, and cached briefly so the memory-hard hash is not paid on every request.

import { createHmac, randomBytes } from "node:crypto";
import type { UserDefinition } from "../../../store/model";
import { hashPassword, verifyPassword } from "./secret-hash";
import { FailureThrottle } from "./throttle";

/**
 * Memory-hard verifications running at once, at most: each takes 32 MiB and a thread of libuv's pool, so a flood
 * from many addresses waits (429) rather than starve everyone else.
 */
const MAX_CONCURRENT_VERIFICATIONS = 16;

export type PasswordAnswer = { readonly kind: "ok" } | { readonly kind: "wrong" } | { readonly kind: "throttled"; readonly retryAfterSeconds: number };

export interface PasswordCheckOptions {
  readonly throttle?: FailureThrottle;
  /** How long a verified password is remembered. */
  readonly cacheTtlMs?: number;
  readonly cacheSize?: number;
  readonly now?: () => number;
}

export class PasswordCheck {
  private readonly throttle: FailureThrottle;
  private readonly cacheTtlMs: number;
  private readonly cacheSize: number;
  private readonly now: () => number;
  // The cache is keyed by an HMAC under a secret that never leaves this process, over the user, the password and
  // the stored hash: it holds no password, and a changed password or hash never matches an old entry.
  private readonly cacheSecret = randomBytes(32);
  private readonly verified = new Map<string, number>();
  private dummyHash: Promise<string> | null = null;
  private verifying = 0;

  constructor(options: PasswordCheckOptions = {}) {
    this.now = options.now ?? Date.now;
    this.throttle = options.throttle ?? new FailureThrottle(undefined, this.now);
    this.cacheTtlMs = options.cacheTtlMs ?? 60_000;
    this.cacheSize = options.cacheSize ?? 10_000;
  }

  async check(username: string, password: string, user: UserDefinition | undefined, clientAddress: string): Promise<PasswordAnswer> {
    const key = createHmac("sha256", this.cacheSecret).update(`${username}\u0000${password}\u0000${user?.passwordHash ?? ""}`).digest("base64");
    const until = this.verified.get(key);
    if (user && until !== undefined && until > this.now()) return { kind: "ok" };
    const retryAfter = this.throttle.beginAttempt(username, clientAddress);
    if (retryAfter !== null) return { kind: "throttled", retryAfterSeconds: retryAfter };
    if (this.verifying >= MAX_CONCURRENT_VERIFICATIONS) return { kind: "throttled", retryAfterSeconds: 1 };
    this.verifying++;
    let ok: boolean;
    try {
      // An unknown user costs one hash verification too, so timing does not tell unknown users from wrong passwords.
      ok = await verifyPassword(password, user?.passwordHash ?? (await this.dummy()));
    } finally {
      this.verifying--;
    }
    if (!ok || !user) return { kind: "wrong" };
    this.throttle.recordSuccess(username, clientAddress);
    this.verified.delete(key);
    this.verified.set(key, this.now() + this.cacheTtlMs);
    if (this.verified.size > this.cacheSize) this.verified.delete(this.verified.keys().next().value!);
    return { kind: "ok" };
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
    return this.dummyHash;
  }
}
