// Runs a command's work against the store named by --database-url / --data-dir (or their environment variables),
// closing it afterwards and turning the store's refusals into exit codes.

import type { Command } from "commander";
import type { Store } from "../store/store";
import { openStore, storeLocationFromEnvironment } from "../store/open-store";
import { DatabaseUnavailable } from "../store/database";
import { StoreRefusal } from "../store/store-refusal";
import { CliError, EXIT } from "./exit-codes";
import type { Io } from "./output";

/** Opens the store the command line names; the caller closes it. */
export async function openStoreFor(command: Command, io: Io): Promise<Store> {
  const options = command.optsWithGlobals<{ dataDir?: string; databaseUrl?: string }>();
  const fromEnvironment = storeLocationFromEnvironment(io.environment);
  try {
    return await openStore({ databaseUrl: options.databaseUrl ?? fromEnvironment.databaseUrl, dataDir: options.dataDir ?? fromEnvironment.dataDir });
  } catch (error) {
    if (error instanceof DatabaseUnavailable) throw new CliError(EXIT.storeUnavailable, error.message);
    throw error;
  }
}

export async function withStore<T>(command: Command, io: Io, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStoreFor(command, io);
  try {
    return await work(store);
  } catch (error) {
    if (error instanceof StoreRefusal) {
      const code = error.kind === "not-found" ? EXIT.notFound : EXIT.conflict;
      throw new CliError(code, error.message);
    }
    if (error instanceof DatabaseUnavailable) throw new CliError(EXIT.storeUnavailable, error.message);
    throw error;
  } finally {
    await store.close();
  }
}
