// Queries for Sites.

import type { SqlExecutor } from "../database";
import type { AuthMethod, Region, SiteDefinition } from "../model";
import { flag, json } from "./rows";

export interface SiteRow extends SiteDefinition {
  readonly id: number;
}

export async function listSites(tx: SqlExecutor): Promise<SiteRow[]> {
  const rows = await tx.all<Record<string, unknown>>(
    "SELECT id, name, subdomain, region, allowed_origins, environments, release_management, auth_methods, settings, outbound_hosts FROM sites ORDER BY name",
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    subdomain: String(row.subdomain),
    region: row.region as Region,
    allowedOrigins: json<"*" | string[]>(row.allowed_origins),
    environments: json<string[]>(row.environments),
    releaseManagement: flag(row.release_management),
    authMethods: json<AuthMethod[]>(row.auth_methods),
    settings: json<SiteDefinition["settings"]>(row.settings),
    outboundHosts: json<string[] | null>(row.outbound_hosts),
  }));
}

function columns(site: SiteDefinition): unknown[] {
  return [
    site.name,
    site.subdomain,
    site.region,
    JSON.stringify(site.allowedOrigins),
    JSON.stringify(site.environments),
    site.releaseManagement,
    JSON.stringify(site.authMethods),
    JSON.stringify(site.settings),
    JSON.stringify(site.outboundHosts),
  ];
}

export async function insertSite(tx: SqlExecutor, site: SiteDefinition, now: number): Promise<number> {
  const [row] = await tx.all<{ id: number }>(
    "INSERT INTO sites (name, subdomain, region, allowed_origins, environments, release_management, auth_methods, settings, outbound_hosts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    [...columns(site), now, now],
  );
  return Number(row!.id);
}

export async function updateSite(tx: SqlExecutor, id: number, site: SiteDefinition, now: number): Promise<void> {
  await tx.run(
    "UPDATE sites SET name = ?, subdomain = ?, region = ?, allowed_origins = ?, environments = ?, release_management = ?, auth_methods = ?, settings = ?, outbound_hosts = ?, updated_at = ? WHERE id = ?",
    [...columns(site), now, id],
  );
}

export async function deleteSite(tx: SqlExecutor, id: number): Promise<void> {
  await tx.run("DELETE FROM sites WHERE id = ?", [id]);
}

/** Moves a Site's subdomain aside within an apply; the apply sets the final one before it commits. */
export async function setSubdomain(tx: SqlExecutor, id: number, subdomain: string): Promise<void> {
  await tx.run("UPDATE sites SET subdomain = ? WHERE id = ?", [subdomain, id]);
}
