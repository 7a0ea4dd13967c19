// Queries for the deployment row: settings and the configuration version.

import type { Database, SqlExecutor } from "../database";
import type { DeploymentSettings } from "../model";
import { json } from "./rows";

export const CONFIGURATION_CHANNEL = "flowgate_configuration";

export async function readDeployment(tx: SqlExecutor): Promise<{ settings: DeploymentSettings | null; version: number }> {
  const [row] = await tx.all<{ settings: string | null; configuration_version: number }>("SELECT settings, configuration_version FROM deployment WHERE id = 1");
  return { settings: row?.settings ? json<DeploymentSettings>(row.settings) : null, version: Number(row?.configuration_version ?? 0) };
}

export async function writeSettings(tx: SqlExecutor, settings: DeploymentSettings): Promise<void> {
  await tx.run("UPDATE deployment SET settings = ? WHERE id = 1", [JSON.stringify(settings)]);
}

/** Marks a change every node must see; on PostgreSQL, listeners hear of it when the transaction commits. */
export async function bumpConfigurationVersion(tx: SqlExecutor, dialect: Database["dialect"]): Promise<number> {
  await tx.run("UPDATE deployment SET configuration_version = configuration_version + 1 WHERE id = 1");
  const { version } = await readDeployment(tx);
  if (dialect === "postgres") await tx.run("SELECT pg_notify(?, ?)", [CONFIGURATION_CHANNEL, String(version)]);
  return version;
}

export async function readConfigurationVersion(tx: SqlExecutor): Promise<number> {
  const [row] = await tx.all<{ configuration_version: number }>("SELECT configuration_version FROM deployment WHERE id = 1");
  return Number(row?.configuration_version ?? 0);
}
