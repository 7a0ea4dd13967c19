// Slows down password guessing: failed attempts are counted per user and client address, and per address. A pair
// or an address over its limit waits, longer each time, up to a cap, so an attacker elsewhere can never lock a real
// user out of their own address, and nobody stays locked out for long.

export interface ThrottleLimits {
  /** Failures allowed per user and address within the window. */
  readonly perUserAndAddress: number;
  /** Failures allowed per address, across users, within the window. */
  readonly perAddress: number;
  readonly windowMs: number;
  /** The longest a lock lasts. */
  readonly maxLockMs: number;
  /** Counters kept at most; the oldest are forgotten first. */
  readonly maxTracked: number;
}

export const DEFAULT_THROTTLE_LIMITS: ThrottleLimits = { perUserAndAddress: 5, perAddress: 30, windowMs: 60_000, maxLockMs: 60_000, maxTracked: 100_000 };

interface Counter {
  failures: number;
  windowStart: number;
  lockedUntil: number;
  locks: number;
}

export class FailureThrottle {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or null when an attempt may be made now. */
  retryAfter(user: string, address: string): number | null {
    const now = this.now();
    const until = Math.max(this.counters.get(pairKey(user, address))?.lockedUntil ?? 0, this.counters.get(addressKey(address))?.lockedUntil ?? 0);
    return until > now ? Math.ceil((until - now) / 1000) : null;
  }

  /**
   * Counts an attempt as failed before it is checked, so attempts sent all at once cannot pass together before
   * any failure is counted. Answers the wait when this attempt may not be made (it stays counted).
   */
  beginAttempt(user: string, address: string): number | null {
    const waiting = this.retryAfter(user, address);
    if (waiting !== null) return waiting;
    this.recordFailure(user, address);
    return this.retryAfter(user, address);
  }

  recordFailure(user: string, address: string): void {
    this.count(pairKey(user, address), this.limits.perUserAndAddress);
    this.count(addressKey(address), this.limits.perAddress);
  }

  /** Takes back an attempt that succeeded: the user's failures at this address are forgotten. */
  recordSuccess(user: string, address: string): void {
    this.counters.delete(pairKey(user, address));
    const counter = this.counters.get(addressKey(address));
    if (counter && counter.failures > 0) counter.failures--;
  }

  private count(key: string, limit: number): void {
    const now = this.now();
    let counter = this.counters.get(key);
    if (!counter || now - counter.windowStart > this.limits.windowMs) {
      counter = { failures: 0, windowStart: now, lockedUntil: counter?.lockedUntil ?? 0, locks: counter && now - counter.lockedUntil < this.limits.windowMs ? counter.locks : 0 };
    }
    counter.failures++;
    if (counter.failures > limit) {
      counter.lockedUntil = now + Math.min(this.limits.maxLockMs, 1000 * 2 ** counter.locks);
      counter.locks++;
      counter.failures = 0;
      counter.windowStart = now;
    }
    this.counters.delete(key);
    this.counters.set(key, counter);
    if (this.counters.size > this.limits.maxTracked) this.counters.delete(this.counters.keys().next().value!);
  }
}

function pairKey(user: string, address: string): string {
  return `u\u0000${user}\u0000${address}`;
}

function addressKey(address: string): string {
  return `a\u0000${address}`;
}
