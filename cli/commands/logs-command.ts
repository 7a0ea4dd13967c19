// `flowgate logs`: activity logs, newest first, with the Start Activity Log's InitialisationXml on request.

import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import type { Io } from "../output";
import { printJson, printTable } from "../output";
import { withStore } from "../store-command";
import { parsePositiveInteger } from "./promote-command";

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since` takes a duration back from now (30s, 15m, 2h, 7d) or a date and time (2026-11-21T09:00:00Z). */
export function parseSince(text: string, now = Date.now()): number {
  const relative = /^(\d+)([smhd])$/.exec(text);
  if (relative) return now - Number(relative[1]) * UNITS[relative[2]!]!;
  const absolute = Date.parse(text);
  if (Number.isNaN(absolute)) throw new InvalidArgumentError(`"${text}" is neither a duration (30s, 15m, 2h, 7d) nor a date (2026-11-21T09:00:00Z)`);
  return absolute;
}

export function registerLogsCommand(program: Command, io: Io): void {
  program
    .command("logs")
    .description("list activity logs, newest first")
    .option("--site <site>", "only this Site")
    .option("--workflow <workflow>", "only this Workflow")
    .option("--since <when>", "only calls since a duration ago (15m, 2h, 7d) or a date", (text) => parseSince(text))
    .option("--limit <count>", "at most this many (default 100)", parsePositiveInteger)
    .option("--xml", "show each call's InitialisationXml")
    .option("--json", "print the result as JSON")
    .action(async (options: { site?: string; workflow?: string; since?: number; limit?: number; xml?: boolean; json?: boolean }, command: Command) => {
      const logs = await withStore(command, io, (store) =>
        store.activityLogs({
          ...(options.site !== undefined ? { site: options.site } : {}),
          ...(options.workflow !== undefined ? { workflow: options.workflow } : {}),
          ...(options.since !== undefined ? { since: options.since } : {}),
          limit: options.limit ?? 100,
        }),
      );
      if (options.json) return printJson(io, { logs: options.xml ? logs : logs.map(({ initialisationXml: _, ...log }) => log) });
      printTable(
        io,
        ["STARTED", "ACTIVITY", "SITE", "WORKFLOW", "REV", "ENVIRONMENT", "REQUEST", "STATUS", "MS", "CALLER"],
        logs.map((log) => [
          new Date(log.startedAt).toISOString(),
          log.id,
          log.site,
          log.workflow,
          String(log.revision),
          log.environment,
          `${log.method} ${log.url}`,
          log.status === null ? "running" : String(log.status),
          log.durationMs === null ? "-" : String(log.durationMs),
          log.principal ?? "anonymous",
        ]),
        "no activity logs match",
      );
      if (options.xml) for (const log of logs) io.stdout(`\n${log.id}:\n${log.initialisationXml}\n`);
    });
}
