// The shared store's database: PostgreSQL through `pg`, for several gateway and runner nodes on one database.

import pg from "pg";
import type { Database, Row, SqlExecutor } from "../database";
import { DatabaseUnavailable } from "../database";

export interface PostgresOptions {
  /** A postgres:// URL. */
  readonly url: string;
  /** A schema to keep Flowgate's tables in (created when missing); the server's default search path otherwise. */
  readonly schema?: string;
  /** How the connections show in pg_stat_activity (default `flowgate`). */
  readonly applicationName?: string;
}

const INT8 = 20;
// Times and ids are BIGINT; they stay well inside JavaScript's safe integers, so read them as numbers.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

export async function openPostgresDatabase(options: PostgresOptions): Promise<Database> {
  const location = redact(options.url);
  if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) {
    throw new DatabaseUnavailable(`schema name "${options.schema}" must be lower-case letters, digits and underscores`);
  }
  const pool = new pg.Pool({ ...connectionSettings(options), max: 10, types, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  try {
    if (options.schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
    else await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailable(`cannot reach PostgreSQL at ${location}: ${(error as Error).message}`);
  }
  return new PostgresDatabase(pool, location, options);
}

function connectionSettings(options: PostgresOptions): pg.ClientConfig {
  return {
    connectionString: options.url,
    application_name: options.applicationName ?? "flowgate",
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  };
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparsable PostgreSQL URL)";
  }
}

/** "?" placeholders to PostgreSQL's numbered ones. Our statements hold no "?" in literals. */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

class PostgresExecutor implements SqlExecutor {
  constructor(private readonly client: pg.Pool | pg.PoolClient) {}

  async all<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.client.query(numbered(sql), params as unknown[])).rows as T[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.client.query(numbered(sql), params as unknown[])).rowCount ?? 0;
  }

  async exec(script: string): Promise<void> {
    await this.client.query(script);
  }
}

// The advisory lock every configuration transaction takes, so concurrent `apply` runs and migrations queue up.
const WRITE_LOCK = 0x466c6f77;

class PostgresDatabase extends PostgresExecutor implements Database {
  readonly dialect = "postgres";

  constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
    private readonly options: PostgresOptions,
  ) {
    super(pool);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A connection cut while checked out reports here; the failing query reports it to the caller too.
    const ignore = () => undefined;
    client.on("error", ignore);
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK]);
      const result = await work(new PostgresExecutor(client));
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.off("error", ignore);
      // A client whose connection failed is dropped rather than handed to the next caller.
      client.release(broken);
    }
  }

  async listen(channel: string, onMessage: () => void): Promise<() => Promise<void>> {
    // A dedicated connection: LISTEN lasts as long as the session, so it cannot come from the pool.
    const client = new pg.Client(connectionSettings(this.options));
    client.on("error", () => undefined);
    await client.connect();
    client.on("notification", (message) => {
      if (message.channel === channel) onMessage();
    });
    await client.query(`LISTEN ${channel}`);
    return async () => {
      await client.end().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
