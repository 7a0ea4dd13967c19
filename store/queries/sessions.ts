// Queries for legacy session tokens, stored as hashes.

import type { SqlExecutor } from "../database";
import type { SessionRecord } from "../../plugins/flowgate/auth/session/sessions";
import { optionalNumber } from "./rows";

export async function insertSession(tx: SqlExecutor, user: string, tokenHash: string, now: number, expiresAt: number): Promise<boolean> {
  const changed = await tx.run(
    "INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, revoked_at) SELECT ?, id, ?, ?, ?, NULL FROM users WHERE name = ?",
    [tokenHash, now, now, expiresAt, user],
  );
  return changed === 1;
}

export async function findSession(tx: SqlExecutor, tokenHash: string): Promise<SessionRecord | null> {
  const [row] = await tx.all<Record<string, unknown>>(
    "SELECT s.token_hash, u.name, s.created_at, s.last_used_at, s.expires_at, s.revoked_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?",
    [tokenHash],
  );
  if (!row) return null;
  return {
    tokenHash: String(row.token_hash),
    user: String(row.name),
    createdAt: Number(row.created_at),
    lastUsedAt: Number(row.last_used_at),
    expiresAt: Number(row.expires_at),
    revokedAt: optionalNumber(row.revoked_at),
  };
}

export async function touchSession(tx: SqlExecutor, tokenHash: string, at: number): Promise<void> {
  await tx.run("UPDATE sessions SET last_used_at = ? WHERE token_hash = ? AND last_used_at < ?", [at, tokenHash, at]);
}

export async function revokeUserSessions(tx: SqlExecutor, user: string, at: number): Promise<number> {
  return tx.run("UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND user_id = (SELECT id FROM users WHERE name = ?)", [at, user]);
}

/** Drops sessions long expired, so the table does not grow without end. */
export async function deleteExpiredSessions(tx: SqlExecutor, before: number): Promise<number> {
  return tx.run("DELETE FROM sessions WHERE expires_at < ?", [before]);
}
