// The little SQL surface the store needs, implemented once per database (store/sqlite, store/postgres).
// Statements use "?" placeholders in both dialects; the PostgreSQL side numbers them.

export type Row = Record<string, unknown>;

export interface SqlExecutor {
  all<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement and answers how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface Database extends SqlExecutor {
  readonly dialect: "sqlite" | "postgres";
  /** Where the data lives, for messages; never holds a password. */
  readonly location: string;
  /**
   * Runs `work` in one transaction that holds the database's write lock from its start, so two processes applying
   * configuration never interleave. Commits when `work` resolves, rolls back when it throws.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Calls `onMessage` when another connection signals `channel`, where the database can push; else null. */
  listen(channel: string, onMessage: () => void): Promise<(() => Promise<void>) | null>;
  close(): Promise<void>;
}

/** A database that cannot be reached or opened, said for the operator who can fix it. */
export class DatabaseUnavailable extends Error {}
