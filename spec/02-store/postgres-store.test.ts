import { beforeAll } from "vitest";
import pg from "pg";
import { Store } from "../../store/store";
import { openPostgresDatabase } from "../../store/postgres/postgres-database";
import { storeContract } from "./store-contract";
import { postgresAvailability, TEST_DATABASE_URL } from "./postgres-availability";
import type { Availability } from "./postgres-availability";

let availability: Availability | undefined;
beforeAll(async () => {
  availability = await postgresAvailability();
});

let counter = 0;
storeContract(
  "PostgreSQL",
  () => {
    // Each case gets a schema of its own, dropped afterwards, so runs never see each other's data.
    const schema = `flowgate_test_${process.pid}_${Date.now()}_${counter++}`;
    const open = async () => Store.open(await openPostgresDatabase({ url: TEST_DATABASE_URL, schema }));
    return {
      open,
      openAnother: open,
      cleanup: async () => {
        const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      },
    };
  },
  { unavailable: () => (availability && !availability.available ? availability.reason : null) },
);
