// Queries for activity logs: a call's start and finish land in one row, written as each becomes known.

import type { SqlExecutor } from "../database";
import type { ActivityLog, ActivityLogFilter } from "../model";
import { json, optionalNumber } from "./rows";

export const UPSERT_ACTIVITY_LOG = `INSERT INTO activity_logs (id, site, workflow, revision, environment, method, url, principal, started_at, initialisation_xml, finished_at, status, duration_ms, error, messages)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET finished_at = excluded.finished_at, status = excluded.status, duration_ms = excluded.duration_ms, error = excluded.error, messages = excluded.messages`;

export async function upsertActivityLog(tx: SqlExecutor, log: ActivityLog): Promise<void> {
  await tx.run(UPSERT_ACTIVITY_LOG, activityLogParameters(log));
}

export function activityLogParameters(log: ActivityLog): unknown[] {
  return [
    log.id,
    log.site,
    log.workflow,
    log.revision,
    log.environment,
    log.method,
    log.url,
    log.principal,
    log.startedAt,
    log.initialisationXml,
    log.finishedAt,
    log.status,
    log.durationMs,
    log.error,
    JSON.stringify(log.messages),
  ];
}

export async function listActivityLogs(tx: SqlExecutor, filter: ActivityLogFilter): Promise<ActivityLog[]> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const onlyWhere = (condition: string, value: unknown) => {
    conditions.push(condition);
    params.push(value);
  };
  if (filter.site !== undefined) onlyWhere("site = ?", filter.site);
  if (filter.workflow !== undefined) onlyWhere("workflow = ?", filter.workflow);
  if (filter.since !== undefined) onlyWhere("started_at >= ?", filter.since);
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const rows = await tx.all<Record<string, unknown>>(`SELECT * FROM activity_logs ${where} ORDER BY started_at DESC, id LIMIT ?`, [...params, filter.limit ?? 100]);
  return rows.map((row) => ({
    id: String(row.id),
    site: String(row.site),
    workflow: String(row.workflow),
    revision: Number(row.revision),
    environment: String(row.environment),
    method: String(row.method),
    url: String(row.url),
    principal: row.principal === null ? null : String(row.principal),
    startedAt: Number(row.started_at),
    initialisationXml: String(row.initialisation_xml),
    finishedAt: optionalNumber(row.finished_at),
    status: optionalNumber(row.status),
    durationMs: optionalNumber(row.duration_ms),
    error: row.error === null ? null : String(row.error),
    messages: json<ActivityLog["messages"]>(row.messages),
  }));
}
