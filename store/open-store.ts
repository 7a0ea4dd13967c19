// Opens the store a command or server was pointed at: PostgreSQL when a database URL is given, else the embedded
// SQLite file under the data directory.

import { openSqliteDatabase } from "./sqlite/sqlite-database";
import { openPostgresDatabase } from "./postgres/postgres-database";
import { Store } from "./store";

export interface StoreLocation {
  /** postgres://...; from --database-url or FLOWGATE_DATABASE_URL. */
  readonly databaseUrl?: string | undefined;
  /** From --data-dir or FLOWGATE_DATA_DIR; `.flowgate` in the working directory by default. */
  readonly dataDir?: string | undefined;
  readonly schema?: string | undefined;
}

export const DEFAULT_DATA_DIR = ".flowgate";

export function storeLocationFromEnvironment(environment: NodeJS.ProcessEnv = process.env): StoreLocation {
  return { databaseUrl: environment.FLOWGATE_DATABASE_URL || undefined, dataDir: environment.FLOWGATE_DATA_DIR || undefined };
}

export async function openStore(location: StoreLocation): Promise<Store> {
  if (location.databaseUrl) {
    return Store.open(await openPostgresDatabase({ url: location.databaseUrl, ...(location.schema ? { schema: location.schema } : {}) }));
  }
  return Store.open(openSqliteDatabase(location.dataDir ?? DEFAULT_DATA_DIR));
}
