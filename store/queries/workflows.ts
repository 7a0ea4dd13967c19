// Queries for Workflows, their revisions and their releases.

import type { SqlExecutor } from "../database";
import type { Limits, RevisionContent, VariableBarDefinition } from "../model";
import { flag, json } from "./rows";

export interface WorkflowRow {
  readonly id: number;
  readonly siteId: number;
  readonly name: string;
  readonly allowOverlapWith: readonly string[];
}

export interface RevisionRow extends RevisionContent {
  readonly workflowId: number;
  readonly number: number;
  readonly contentHash: string;
  readonly createdAt: number;
}

export interface ReleaseRow {
  readonly workflowId: number;
  readonly environment: string;
  readonly revision: number;
  readonly releasedAt: number;
}

export async function listWorkflows(tx: SqlExecutor): Promise<WorkflowRow[]> {
  const rows = await tx.all<Record<string, unknown>>("SELECT id, site_id, name, allow_overlap_with FROM workflows ORDER BY name");
  return rows.map((row) => ({ id: Number(row.id), siteId: Number(row.site_id), name: String(row.name), allowOverlapWith: json<string[]>(row.allow_overlap_with) }));
}

export async function insertWorkflow(tx: SqlExecutor, siteId: number, name: string, allowOverlapWith: readonly string[], now: number): Promise<number> {
  const [row] = await tx.all<{ id: number }>("INSERT INTO workflows (site_id, name, allow_overlap_with, created_at) VALUES (?, ?, ?, ?) RETURNING id", [
    siteId,
    name,
    JSON.stringify(allowOverlapWith),
    now,
  ]);
  return Number(row!.id);
}

export async function updateWorkflowOverlap(tx: SqlExecutor, id: number, allowOverlapWith: readonly string[]): Promise<void> {
  await tx.run("UPDATE workflows SET allow_overlap_with = ? WHERE id = ?", [JSON.stringify(allowOverlapWith), id]);
}

export async function deleteWorkflow(tx: SqlExecutor, id: number): Promise<void> {
  await tx.run("DELETE FROM workflows WHERE id = ?", [id]);
}

export async function listRevisions(tx: SqlExecutor): Promise<RevisionRow[]> {
  const rows = await tx.all<Record<string, unknown>>(
    "SELECT workflow_id, number, content_hash, method, template, variable_bar, code, code_path, limits, anonymous, created_at FROM revisions ORDER BY workflow_id, number",
  );
  return rows.map((row) => ({
    workflowId: Number(row.workflow_id),
    number: Number(row.number),
    contentHash: String(row.content_hash),
    method: String(row.method),
    template: String(row.template),
    variableBar: json<VariableBarDefinition>(row.variable_bar),
    code: String(row.code),
    codePath: String(row.code_path),
    limits: json<Limits>(row.limits),
    anonymous: flag(row.anonymous),
    createdAt: Number(row.created_at),
  }));
}

export async function insertRevision(tx: SqlExecutor, revision: RevisionRow): Promise<void> {
  await tx.run(
    "INSERT INTO revisions (workflow_id, number, content_hash, method, template, variable_bar, code, code_path, limits, anonymous, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [
      revision.workflowId,
      revision.number,
      revision.contentHash,
      revision.method,
      revision.template,
      JSON.stringify(revision.variableBar),
      revision.code,
      revision.codePath,
      JSON.stringify(revision.limits),
      revision.anonymous,
      revision.createdAt,
    ],
  );
}

export async function listReleases(tx: SqlExecutor): Promise<ReleaseRow[]> {
  const rows = await tx.all<Record<string, unknown>>("SELECT workflow_id, environment, revision, released_at FROM releases");
  return rows.map((row) => ({ workflowId: Number(row.workflow_id), environment: String(row.environment), revision: Number(row.revision), releasedAt: Number(row.released_at) }));
}

export async function upsertRelease(tx: SqlExecutor, release: ReleaseRow): Promise<void> {
  await tx.run(
    "INSERT INTO releases (workflow_id, environment, revision, released_at) VALUES (?, ?, ?, ?) ON CONFLICT (workflow_id, environment) DO UPDATE SET revision = excluded.revision, released_at = excluded.released_at",
    [release.workflowId, release.environment, release.revision, release.releasedAt],
  );
}

export async function deleteReleasesOutside(tx: SqlExecutor, workflowId: number, environments: readonly string[]): Promise<number> {
  const placeholders = environments.map(() => "?").join(", ");
  return tx.run(`DELETE FROM releases WHERE workflow_id = ? AND environment NOT IN (${placeholders})`, [workflowId, ...environments]);
}
