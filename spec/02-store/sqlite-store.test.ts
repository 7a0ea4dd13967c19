import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../store/store";
import { openSqliteDatabase } from "../../store/sqlite/sqlite-database";
import { storeContract } from "./store-contract";

storeContract("embedded SQLite", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "flowgate-store-"));
  return {
    open: () => Store.open(openSqliteDatabase(dataDir)),
    openAnother: () => Store.open(openSqliteDatabase(dataDir)),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});
