// Whether the PostgreSQL store tests can run. Under CI (CI=true) they must: an unreachable server fails the run.

import pg from "pg";

export const TEST_DATABASE_URL = process.env.FLOWGATE_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export type Availability = { readonly available: true } | { readonly available: false; readonly reason: string };

export async function postgresAvailability(url = TEST_DATABASE_URL): Promise<Availability> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { available: true };
  } catch (error) {
    const reason = `PostgreSQL is not reachable at ${url} (${(error as Error).message}); the PostgreSQL store tests need it`;
    if (process.env.CI === "true") throw new Error(`${reason}, and under CI they may not be skipped`);
    console.log(`Skipping the PostgreSQL store tests: ${reason}`);
    return { available: false, reason };
  } finally {
    await client.end().catch(() => undefined);
  }
}
