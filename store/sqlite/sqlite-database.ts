// The embedded store's database: one SQLite file under the data directory, no server to run.

import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import type { Database, Row, SqlExecutor } from "../database";
import { DatabaseUnavailable } from "../database";

export const DATABASE_FILE = "flowgate.db";
const LOCK_TIMEOUT_MS = 15000;

/** Opens (creating when needed) `<dataDir>/flowgate.db`. */
export function openSqliteDatabase(dataDir: string): Database {
  const directory = resolve(dataDir);
  const file = join(directory, DATABASE_FILE);
  let connection: BetterSqlite3.Database;
  try {
    mkdirSync(directory, { recursive: true });
    connection = new BetterSqlite3(file);
    // WAL lets readers run beside a writer; synchronous=FULL makes each commit durable before it returns.
    connection.pragma("journal_mode = WAL");
    connection.pragma("synchronous = FULL");
    connection.pragma("foreign_keys = ON");
    // The driver is synchronous: a wait for another connection's lock would stall the event loop (and deadlock
    // with a second connection in this process), so transactions wait for the lock asynchronously instead.
    connection.pragma("busy_timeout = 0");
  } catch (error) {
    throw new DatabaseUnavailable(`cannot open the embedded database ${file}: ${(error as Error).message}`);
  }
  return new SqliteDatabase(connection, file);
}

/** better-sqlite3 binds no booleans: SQLite stores them as 1 and 0. */
function bindable(params: readonly unknown[]): unknown[] {
  return params.map((value) => (typeof value === "boolean" ? Number(value) : value));
}

class SqliteExecutor implements SqlExecutor {
  constructor(
    protected readonly connection: BetterSqlite3.Database,
    // Our statements are a fixed set, so each is prepared once per connection.
    private readonly statements = new Map<string, BetterSqlite3.Statement>(),
  ) {}

  async all<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.statement(sql).all(...bindable(params)) as T[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.statement(sql).run(...bindable(params)).changes;
  }

  protected get preparedStatements(): Map<string, BetterSqlite3.Statement> {
    return this.statements;
  }

  private statement(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  async exec(script: string): Promise<void> {
    this.connection.exec(script);
  }
}

class SqliteDatabase extends SqliteExecutor implements Database {
  readonly dialect = "sqlite";
  // One connection serves the whole process, so transactions take turns rather than interleave on it.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(connection: BetterSqlite3.Database, readonly location: string) {
    super(connection);
  }

  override all<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.inTurn(() => super.all<T>(sql, params));
  }

  override run(sql: string, params?: readonly unknown[]): Promise<number> {
    return this.inTurn(() => super.run(sql, params));
  }

  override exec(script: string): Promise<void> {
    return this.inTurn(() => super.exec(script));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      await this.beginImmediate();
      try {
        const result = await work(new SqliteExecutor(this.connection, this.preparedStatements));
        this.connection.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.connection.inTransaction) this.connection.exec("ROLLBACK");
        throw error;
      }
    });
  }

  /** IMMEDIATE takes the write lock at once, so a writer waits here rather than failing to upgrade a read later. */
  private async beginImmediate(): Promise<void> {
    const deadline = Date.now() + LOCK_TIMEOUT_MS;
    for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
      try {
        this.connection.exec("BEGIN IMMEDIATE");
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) {
          throw new DatabaseUnavailable(`the embedded database ${this.location} stayed locked by another process for ${LOCK_TIMEOUT_MS / 1000} s: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  async listen(): Promise<null> {
    return null;
  }

  async close(): Promise<void> {
    await this.inTurn(async () => this.connection.close());
  }

  private inTurn<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
