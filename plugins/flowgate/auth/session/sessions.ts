// Legacy session tokens (spec: "Session Authentication"): what is stored, how long a token lives, and a cache so a
// node asks the store about a token at most every few seconds rather than on every request.

import type { DeploymentSettings } from "../../../../store/model";

export interface SessionRecord {
  readonly tokenHash: string;
  readonly user: string;
  readonly createdAt: number;
  readonly lastUsedAt: number;
  readonly expiresAt: number;
  readonly revokedAt: number | null;
}

export interface SessionStore {
  createSession(user: string, tokenHash: string, now: number, expiresAt: number): Promise<void>;
  findSession(tokenHash: string): Promise<SessionRecord | null>;
  touchSession(tokenHash: string, at: number): Promise<void>;
}

export interface SessionLifetime {
  /** A token unused this long expires. */
  readonly idleMs: number;
  /** A token expires this long after it was issued, however much it is used. */
  readonly absoluteMs: number;
}

export function sessionLifetime(deployment: DeploymentSettings): SessionLifetime {
  return { idleMs: (deployment.sessions?.idleMinutes ?? 30) * 60_000, absoluteMs: (deployment.sessions?.absoluteHours ?? 12) * 3_600_000 };
}

export function sessionValid(session: SessionRecord | null, lifetime: SessionLifetime, now: number): session is SessionRecord {
  return session !== null && session.revokedAt === null && now < session.expiresAt && now - session.lastUsedAt < lifetime.idleMs;
}

export interface SessionCacheOptions {
  /** How stale a cached session may be: a revocation reaches this node within this time. */
  readonly revalidateMs?: number;
  readonly maxEntries?: number;
  /** Last use is written back at most this often per token. */
  readonly touchEveryMs?: number;
  readonly now?: () => number;
}

export class SessionCache {
  private readonly entries = new Map<string, { session: SessionRecord | null; checkedAt: number }>();
  private readonly revalidateMs: number;
  private readonly maxEntries: number;
  private readonly touchEveryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: SessionStore,
    options: SessionCacheOptions = {},
  ) {
    this.revalidateMs = options.revalidateMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.touchEveryMs = options.touchEveryMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  async find(tokenHash: string): Promise<SessionRecord | null> {
    const now = this.now();
    const cached = this.entries.get(tokenHash);
    if (cached && now - cached.checkedAt < this.revalidateMs) return cached.session;
    const session = await this.store.findSession(tokenHash);
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { session, checkedAt: now });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return session;
  }

  /** Records a use; the store hears of it when the last write is old enough to matter for idle expiry. */
  noteUse(session: SessionRecord): void {
    const now = this.now();
    if (now - session.lastUsedAt < this.touchEveryMs) return;
    const cached = this.entries.get(session.tokenHash);
    if (cached?.session) cached.session = { ...cached.session, lastUsedAt: now };
    void this.store.touchSession(session.tokenHash, now).catch(() => undefined);
  }
}
