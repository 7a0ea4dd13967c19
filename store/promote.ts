// `flowgate promote`: publishes a revision of a Workflow into a Site Environment (spec: "Release Management").

import type { Database, SqlExecutor } from "./database";
import type { Release } from "./model";
import { loadConfiguration } from "./load-configuration";
import { liveRevisions, refusedOverlaps } from "./live-revisions";
import { bumpConfigurationVersion } from "./queries/deployment";
import { listWorkflows, upsertRelease } from "./queries/workflows";
import { listSites } from "./queries/sites";
import { StoreRefusal } from "./store-refusal";

export interface PromoteRequest {
  readonly site: string;
  readonly workflow: string;
  /** Compared without case, as `_profile` is. */
  readonly environment: string;
  /** The latest revision when left out. */
  readonly revision?: number;
}

export interface PromoteReport {
  readonly site: string;
  readonly workflow: string;
  readonly environment: string;
  readonly revision: number;
  /** The revision live there before, if any. */
  readonly previous: number | null;
  readonly changed: boolean;
}

export async function promote(tx: SqlExecutor, dialect: Database["dialect"], request: PromoteRequest, now: number): Promise<PromoteReport> {
  const configuration = await loadConfiguration(tx);
  const site = configuration.sites.find((candidate) => candidate.name === request.site);
  if (!site) throw new StoreRefusal("not-found", `no Site "${request.site}" (Sites: ${configuration.sites.map((known) => known.name).join(", ") || "none"})`);
  if (!site.releaseManagement) {
    throw new StoreRefusal("conflict", `Site "${site.name}" does not use Release Management: the latest revision of each Workflow is live in every environment. Set releaseManagement: true to promote revisions`);
  }
  const environment = site.environments.find((name) => name.toLowerCase() === request.environment.toLowerCase());
  if (!environment) throw new StoreRefusal("not-found", `Site "${site.name}" has no environment "${request.environment}" (it has ${site.environments.join(", ")})`);
  const workflow = site.workflows.find((candidate) => candidate.name === request.workflow);
  if (!workflow) throw new StoreRefusal("not-found", `Site "${site.name}" has no Workflow "${request.workflow}"`);
  const latest = workflow.revisions[workflow.revisions.length - 1]!;
  const revision = request.revision === undefined ? latest : workflow.revisions.find((candidate) => candidate.number === request.revision);
  if (!revision) throw new StoreRefusal("not-found", `Workflow "${workflow.name}" has no revision ${request.revision} (revisions 1 to ${latest.number})`);

  const previous = configuration.releases.find((release) => release.site === site.name && release.workflow === workflow.name && release.environment === environment)?.revision ?? null;
  const report = { site: site.name, workflow: workflow.name, environment, revision: revision.number, previous, changed: previous !== revision.number };
  if (!report.changed) return report;

  const release: Release = { site: site.name, workflow: workflow.name, environment, revision: revision.number, releasedAt: now };
  const otherReleases = configuration.releases.filter((existing) => !(existing.site === site.name && existing.workflow === workflow.name && existing.environment === environment));
  const reasons = refusedOverlaps(site, environment, liveRevisions(site, environment, [...otherReleases, release]), new Set([workflow.name]));
  if (reasons.length > 0) throw new StoreRefusal("conflict", `promoting would make requests ambiguous:\n${reasons.map((reason) => `  - ${reason}`).join("\n")}`);

  const siteId = (await listSites(tx)).find((row) => row.name === site.name)!.id;
  const workflowId = (await listWorkflows(tx)).find((row) => row.siteId === siteId && row.name === workflow.name)!.id;
  await upsertRelease(tx, { workflowId, environment, revision: revision.number, releasedAt: now });
  await bumpConfigurationVersion(tx, dialect);
  return report;
}
