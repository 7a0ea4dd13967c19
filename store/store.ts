// The store: Flowgate's configuration and activity logs, on the embedded SQLite file or a shared PostgreSQL.
// One implementation of every operation, over either database (store/database.ts).

import type { Database } from "./database";
import type { ActivityLog, ActivityLogFilter, DesiredState, StoredConfiguration } from "./model";
import { migrate } from "./migrate";
import { applyConfiguration } from "./apply-configuration";
import type { Applied, Change } from "./apply-configuration";
import type { HostChange } from "../dns/dns-provider";
import { promote } from "./promote";
import type { PromoteReport, PromoteRequest } from "./promote";
import { loadConfiguration } from "./load-configuration";
import { CONFIGURATION_CHANNEL, readConfigurationVersion } from "./queries/deployment";
import { listActivityLogs, upsertActivityLog } from "./queries/activity-logs";
import { deleteExpiredSessions, findSession, insertSession, revokeUserSessions, touchSession } from "./queries/sessions";
import { changeApiKey, createApiKey } from "./api-keys";
import type { KeyChange, NewApiKey } from "./api-keys";
import type { SessionRecord, SessionStore } from "../plugins/flowgate/auth/session/sessions";
import { StoreRefusal } from "./store-refusal";
import { SqliteActivityThread } from "./sqlite/activity-log-thread";

export interface ApplyReport {
  readonly changes: readonly Change[];
  /** The DNS changes made (or, in a dry run, that would be made). */
  readonly hostChanges: readonly HostChange[];
  /** The configuration version after the apply (unchanged by a dry run or a file that changes nothing). */
  readonly version: number;
  readonly dryRun: boolean;
}

class DryRun {
  constructor(readonly applied: Applied) {}
}

export interface ApplyOptions {
  readonly dryRun?: boolean;
  readonly now?: number;
  /**
   * Makes the DNS changes, inside the transaction: when it fails, nothing is saved, so a Site and its record are
   * saved together or not at all.
   */
  readonly publishHosts?: (changes: readonly HostChange[]) => Promise<void>;
}

export class Store implements SessionStore {
  private activityThread: SqliteActivityThread | null = null;

  private constructor(readonly database: Database) {}

  /** Opens the store on `database`, applying any migrations it lacks. */
  static async open(database: Database): Promise<Store> {
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return new Store(database);
  }

  async configuration(): Promise<StoredConfiguration> {
    return loadConfiguration(this.database);
  }

  async configurationVersion(): Promise<number> {
    return readConfigurationVersion(this.database);
  }

  /** Makes the store match `desired` in one transaction; with `dryRun`, reports the changes and rolls them back. */
  async apply(desired: DesiredState, { dryRun = false, now = Date.now(), publishHosts }: ApplyOptions = {}): Promise<ApplyReport> {
    try {
      const applied = await this.database.transaction(async (tx) => {
        const made = await applyConfiguration(tx, this.database.dialect, desired, now);
        if (dryRun) throw new DryRun(made);
        if (made.hostChanges.length > 0 && publishHosts) await publishHosts(made.hostChanges);
        return made;
      });
      return { ...applied, version: await this.configurationVersion(), dryRun };
    } catch (thrown) {
      if (thrown instanceof DryRun) return { ...thrown.applied, version: await this.configurationVersion(), dryRun: true };
      throw thrown;
    }
  }

  async promote(request: PromoteRequest, { now = Date.now() } = {}): Promise<PromoteReport> {
    return this.database.transaction((tx) => promote(tx, this.database.dialect, request, now));
  }

  /**
   * Writes activity logs; a log already written (its start) is completed with its finish. The embedded store
   * writes them on a thread of its own (store/sqlite/activity-log-thread.ts).
   */
  async recordActivity(logs: readonly ActivityLog[]): Promise<void> {
    if (logs.length === 0) return;
    if (this.database.dialect === "sqlite") {
      if (!this.activityThread || this.activityThread.stopped) this.activityThread = new SqliteActivityThread(this.database.location);
      return this.activityThread.write(logs);
    }
    await this.database.transaction(async (tx) => {
      for (const log of logs) await upsertActivityLog(tx, log);
    });
  }

  async activityLogs(filter: ActivityLogFilter = {}): Promise<ActivityLog[]> {
    return listActivityLogs(this.database, filter);
  }

  /**
   * Calls `onChange` with the new version whenever the configuration changes, from this process or another. Polls
   * the version (one small query) every `pollMs`; on PostgreSQL a notification also wakes it at once.
   */
  async watchConfiguration(onChange: (version: number) => void, { pollMs = 1000 } = {}): Promise<() => Promise<void>> {
    let known = await this.configurationVersion();
    let checking = false;
    const check = async () => {
      if (checking) return;
      checking = true;
      try {
        const version = await this.configurationVersion();
        if (version !== known) {
          known = version;
          onChange(version);
        }
      } catch {
        // A database hiccup: the next poll tries again.
      } finally {
        checking = false;
      }
    };
    const timer = setInterval(() => void check(), pollMs);
    timer.unref();
    const unlisten = await this.database.listen(CONFIGURATION_CHANNEL, () => void check()).catch(() => null);
    return async () => {
      clearInterval(timer);
      await unlisten?.();
    };
  }

  async createApiKey(key: NewApiKey, { now = Date.now() } = {}): Promise<string> {
    return this.database.transaction((tx) => createApiKey(tx, this.database.dialect, key, now));
  }

  async changeApiKey(site: string, name: string, change: KeyChange, { now = Date.now() } = {}): Promise<string | null> {
    return this.database.transaction((tx) => changeApiKey(tx, this.database.dialect, site, name, change, now));
  }

  async createSession(user: string, tokenHash: string, now: number, expiresAt: number): Promise<void> {
    const created = await this.database.transaction(async (tx) => {
      // Expired sessions are cleared as new ones come, so the table stays the size of the live ones.
      await deleteExpiredSessions(tx, now);
      return insertSession(tx, user, tokenHash, now, expiresAt);
    });
    if (!created) throw new StoreRefusal("not-found", `no user "${user}"`);
  }

  async findSession(tokenHash: string): Promise<SessionRecord | null> {
    return findSession(this.database, tokenHash);
  }

  async touchSession(tokenHash: string, at: number): Promise<void> {
    await this.database.transaction((tx) => touchSession(tx, tokenHash, at));
  }

  /** Revokes every session of a user; answers how many there were. */
  async revokeSessions(user: string, { now = Date.now() } = {}): Promise<number> {
    return this.database.transaction((tx) => revokeUserSessions(tx, user, now));
  }

  async close(): Promise<void> {
    await this.activityThread?.close();
    await this.database.close();
  }
}
