// Brings a database's schema up to date on start: each step of migrations/<dialect>/ runs once, in a transaction.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Database } from "./database";

const STEP_FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface MigrationStep {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The migrations folder of the installed package, found from here whether running from source or from dist/. */
export function migrationsDirectory(dialect: Database["dialect"]): string {
  for (let directory = __dirname; ; directory = dirname(directory)) {
    const candidate = join(directory, "migrations", dialect);
    if (existsSync(candidate)) return candidate;
    if (dirname(directory) === directory) throw new Error(`no migrations/${dialect} folder above ${__dirname}`);
  }
}

export function readMigrationSteps(directory: string): MigrationStep[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith(".sql"))
    .map((file) => {
      const match = STEP_FILE.exec(file);
      if (!match) throw new Error(`migration file ${join(directory, file)} is not named NNNN_name.sql`);
      return { version: Number(match[1]), name: match[2]!, sql: readFileSync(join(directory, file), "utf8") };
    })
    .sort((a, b) => a.version - b.version);
}

/** Applies the steps not yet applied and answers their names. Safe to run from several processes at once. */
export async function migrate(database: Database, steps: readonly MigrationStep[] = readMigrationSteps(migrationsDirectory(database.dialect))): Promise<string[]> {
  await database.transaction((tx) => tx.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"));
  const applied: string[] = [];
  const newest = steps.length ? steps[steps.length - 1]!.version : 0;
  for (const step of steps) {
    const ran = await database.transaction(async (tx) => {
      // Read under the write lock: another process may have applied the step while this one waited.
      const rows = await tx.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
      const known = rows.map((row) => Number(row.version));
      const ahead = known.find((version) => version > newest);
      if (ahead !== undefined) {
        throw new Error(`the database at ${database.location} has schema version ${ahead}, newer than this Flowgate knows (${newest}); upgrade Flowgate`);
      }
      if (known.includes(step.version)) return false;
      await tx.exec(step.sql);
      await tx.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [step.version, step.name, Date.now()]);
      return true;
    });
    if (ran) applied.push(`${String(step.version).padStart(4, "0")}_${step.name}`);
  }
  return applied;
}
