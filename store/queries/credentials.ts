// Queries for users and API keys.

import type { SqlExecutor } from "../database";
import type { ApiKey, ApiKeyDefinition, UserDefinition } from "../model";
import { flag, json } from "./rows";

export interface UserRow extends UserDefinition {
  readonly id: number;
}

export interface ApiKeyRow extends ApiKey {
  readonly id: number;
  readonly siteId: number;
}

export async function listUsers(tx: SqlExecutor): Promise<UserRow[]> {
  const rows = await tx.all<Record<string, unknown>>("SELECT id, name, password_hash, sites FROM users ORDER BY name");
  return rows.map((row) => ({ id: Number(row.id), name: String(row.name), passwordHash: String(row.password_hash), sites: json<"*" | string[]>(row.sites) }));
}

export async function insertUser(tx: SqlExecutor, user: UserDefinition, now: number): Promise<void> {
  await tx.run("INSERT INTO users (name, password_hash, sites, created_at, updated_at) VALUES (?, ?, ?, ?, ?)", [user.name, user.passwordHash, JSON.stringify(user.sites), now, now]);
}

export async function updateUser(tx: SqlExecutor, id: number, user: UserDefinition, now: number): Promise<void> {
  await tx.run("UPDATE users SET password_hash = ?, sites = ?, updated_at = ? WHERE id = ?", [user.passwordHash, JSON.stringify(user.sites), now, id]);
}

export async function deleteUser(tx: SqlExecutor, id: number): Promise<void> {
  await tx.run("DELETE FROM users WHERE id = ?", [id]);
}

export async function listApiKeys(tx: SqlExecutor): Promise<ApiKeyRow[]> {
  const rows = await tx.all<Record<string, unknown>>(
    "SELECT k.id, k.site_id, s.name AS site, k.name, k.environment, k.workflows, k.disabled, k.primary_hash, k.secondary_hash, k.source FROM api_keys k JOIN sites s ON s.id = k.site_id ORDER BY s.name, k.name",
  );
  return rows.map((row) => ({
    id: Number(row.id),
    siteId: Number(row.site_id),
    site: String(row.site),
    name: String(row.name),
    environment: String(row.environment),
    workflows: json<"*" | string[]>(row.workflows),
    disabled: flag(row.disabled),
    primaryHash: String(row.primary_hash),
    secondaryHash: row.secondary_hash === null ? null : String(row.secondary_hash),
    source: row.source as ApiKey["source"],
  }));
}

function keyColumns(key: ApiKeyDefinition): unknown[] {
  return [key.environment, JSON.stringify(key.workflows), key.disabled, key.primaryHash, key.secondaryHash];
}

export async function insertApiKey(tx: SqlExecutor, siteId: number, key: ApiKeyDefinition, source: ApiKey["source"], now: number): Promise<void> {
  await tx.run(
    "INSERT INTO api_keys (site_id, name, environment, workflows, disabled, primary_hash, secondary_hash, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [siteId, key.name, ...keyColumns(key), source, now, now],
  );
}

export async function updateApiKey(tx: SqlExecutor, id: number, key: ApiKeyDefinition, now: number): Promise<void> {
  await tx.run("UPDATE api_keys SET environment = ?, workflows = ?, disabled = ?, primary_hash = ?, secondary_hash = ?, updated_at = ? WHERE id = ?", [...keyColumns(key), now, id]);
}

export async function deleteApiKey(tx: SqlExecutor, id: number): Promise<void> {
  await tx.run("DELETE FROM api_keys WHERE id = ?", [id]);
}
