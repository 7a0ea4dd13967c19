// `flowgate apply`: makes the store hold exactly what a flowgate.yaml describes, in one transaction.
//
// Sites, Workflows, users and file-owned API keys missing from the file are removed; API keys made with
// `flowgate keys create` stay. A Workflow whose revision content changed gets a new revision. Applying the same file
// twice changes nothing, not even the configuration version.

import { createHash } from "node:crypto";
import type { Database, SqlExecutor } from "./database";
import type { DesiredState, RevisionContent, SiteDefinition, StoredConfiguration, WorkflowDefinition } from "./model";
import { PRODUCTION } from "./model";
import { readDeployment, writeSettings, bumpConfigurationVersion } from "./queries/deployment";
import { deleteSite, insertSite, listSites, setSubdomain, updateSite } from "./queries/sites";
import {
  deleteReleasesOutside,
  deleteWorkflow,
  insertRevision,
  insertWorkflow,
  listRevisions,
  listWorkflows,
  updateWorkflowOverlap,
  upsertRelease,
} from "./queries/workflows";
import type { RevisionRow, WorkflowRow } from "./queries/workflows";
import { deleteApiKey, deleteUser, insertApiKey, insertUser, listApiKeys, listUsers, updateApiKey, updateUser } from "./queries/credentials";
import { loadConfiguration } from "./load-configuration";
import { liveRevisions, refusedOverlaps } from "./live-revisions";
import { StoreRefusal } from "./store-refusal";
import { hashPassword, verifyPassword } from "../plugins/flowgate/auth/secret-hash";
import { siteHost } from "../plugins/flowgate/site-host";
import type { HostChange } from "../dns/dns-provider";
import { orderHostChanges } from "../dns/dns-provider";

export interface Change {
  readonly action: "created" | "updated" | "removed" | "published";
  /** What changed, such as `Site acme` or `Workflow acme/order`. */
  readonly subject: string;
  readonly detail?: string;
}

/** Identifies a revision's content; where the code file lives does not count, only what it says. */
export function revisionHash(content: RevisionContent): string {
  const canonical = JSON.stringify([content.method, content.template, content.variableBar.inputs, content.variableBar.outputs, content.code, content.limits, content.anonymous]);
  return `sha256:${createHash("sha256").update(canonical).digest("hex")}`;
}

export interface Applied {
  readonly changes: Change[];
  /** How the names Sites are reached at change: what DNS must follow. */
  readonly hostChanges: HostChange[];
}

export async function applyConfiguration(tx: SqlExecutor, dialect: Database["dialect"], desired: DesiredState, now: number): Promise<Applied> {
  const changes: Change[] = [];
  const hostChanges: HostChange[] = [];
  const { settings } = await readDeployment(tx);
  const hostBefore = (site: SiteDefinition) => siteHost(site, settings ?? desired.deployment);
  if (JSON.stringify(settings) !== JSON.stringify(desired.deployment)) {
    await writeSettings(tx, desired.deployment);
    changes.push({ action: settings ? "updated" : "created", subject: "deployment settings" });
  }

  const sitesBefore = await listSites(tx);
  const before = { workflows: await listWorkflows(tx), revisions: await listRevisions(tx) };
  const published = new Map<string, Set<string>>();
  // Removed Sites go first, and Sites changing subdomain step aside, so a subdomain can pass from one Site to
  // another within one apply without breaking uniqueness on the way.
  for (const stale of sitesBefore.filter((existing) => !desired.sites.some((site) => site.name.toLowerCase() === existing.name.toLowerCase()))) {
    await deleteSite(tx, stale.id);
    changes.push({ action: "removed", subject: `Site ${stale.name}`, detail: "with its Workflows, revisions and API keys" });
    hostChanges.push({ kind: "remove", site: stale.name, host: hostBefore(stale) });
  }
  for (const stored of sitesBefore) {
    const next = desired.sites.find((site) => site.name.toLowerCase() === stored.name.toLowerCase());
    if (next && next.subdomain !== stored.subdomain) await setSubdomain(tx, stored.id, `~${stored.id}`);
  }
  for (const site of desired.sites) {
    const stored = sitesBefore.find((existing) => existing.name.toLowerCase() === site.name.toLowerCase());
    const { workflows: _, ...definition } = site;
    let siteId: number;
    const host = siteHost(site, desired.deployment);
    if (!stored || hostBefore(stored) !== host) hostChanges.push({ kind: "publish", site: site.name, host, previous: stored ? hostBefore(stored) : null });
    if (!stored) {
      siteId = await insertSite(tx, definition, now);
      changes.push({ action: "created", subject: `Site ${site.name}` });
    } else {
      siteId = stored.id;
      if (siteDiffers(stored, definition)) {
        await updateSite(tx, siteId, definition, now);
        changes.push({ action: "updated", subject: `Site ${site.name}` });
      }
    }
    // Turning Release Management on publishes what is live now, so the switch itself changes no answer.
    const switchedOn = site.releaseManagement && stored !== undefined && !stored.releaseManagement;
    published.set(site.name, await applyWorkflows(tx, siteId, site, switchedOn, before, now, changes));
  }

  await applyUsers(tx, desired, now, changes);
  await applyApiKeys(tx, desired, now, changes);

  if (changes.length > 0) {
    refuseNewOverlaps(await loadConfiguration(tx), published);
    await bumpConfigurationVersion(tx, dialect);
  }
  return { changes, hostChanges: orderHostChanges(hostChanges) };
}

function siteDiffers(before: SiteDefinition, after: SiteDefinition): boolean {
  const canonical = (site: SiteDefinition) =>
    JSON.stringify([site.name, site.subdomain, site.region, site.allowedOrigins, site.environments, site.releaseManagement, site.authMethods, site.settings, site.outboundHosts]);
  return canonical(before) !== canonical(after);
}

/** Applies one Site's Workflows; answers the names of those with a revision newly live somewhere. */
async function applyWorkflows(
  tx: SqlExecutor,
  siteId: number,
  site: DesiredState["sites"][number],
  releaseManagementSwitchedOn: boolean,
  stored: { readonly workflows: readonly WorkflowRow[]; readonly revisions: readonly RevisionRow[] },
  now: number,
  changes: Change[],
): Promise<Set<string>> {
  const newlyLive = new Set<string>();
  const workflowsBefore = stored.workflows.filter((workflow) => workflow.siteId === siteId);
  const revisions = stored.revisions;
  for (const workflow of site.workflows) {
    const subject = `Workflow ${site.name}/${workflow.name}`;
    const before = workflowsBefore.find((existing) => existing.name.toLowerCase() === workflow.name.toLowerCase());
    let workflowId: number;
    if (!before) {
      workflowId = await insertWorkflow(tx, siteId, workflow.name, workflow.allowOverlapWith, now);
      changes.push({ action: "created", subject });
    } else {
      workflowId = before.id;
      if (JSON.stringify(before.allowOverlapWith) !== JSON.stringify(workflow.allowOverlapWith)) {
        await updateWorkflowOverlap(tx, workflowId, workflow.allowOverlapWith);
        changes.push({ action: "updated", subject, detail: "allowOverlapWith" });
      }
    }
    const latest = revisions.filter((revision) => revision.workflowId === workflowId).pop();
    const contentHash = revisionHash(workflow);
    let liveNumber = latest?.number;
    if (latest?.contentHash !== contentHash) {
      liveNumber = (latest?.number ?? 0) + 1;
      await insertRevision(tx, { ...revisionContent(workflow), workflowId, number: liveNumber, contentHash, createdAt: now });
      changes.push({ action: "created", subject: `${subject} revision ${liveNumber}` });
      if (!site.releaseManagement) newlyLive.add(workflow.name);
    }
    if (site.releaseManagement) {
      const removed = await deleteReleasesOutside(tx, workflowId, site.environments);
      if (removed > 0) changes.push({ action: "removed", subject: `${subject} releases`, detail: "of environments the Site no longer has" });
      // A Workflow's first revision has nothing older to keep live, so it goes live everywhere at once.
      if (!latest || releaseManagementSwitchedOn) {
        for (const environment of site.environments) await upsertRelease(tx, { workflowId, environment, revision: liveNumber!, releasedAt: now });
        changes.push({ action: "published", subject: `${subject} revision ${liveNumber}`, detail: `into ${site.environments.join(", ")}` });
        newlyLive.add(workflow.name);
      }
    }
  }
  for (const stale of workflowsBefore.filter((existing) => !site.workflows.some((workflow) => workflow.name.toLowerCase() === existing.name.toLowerCase()))) {
    await deleteWorkflow(tx, stale.id);
    changes.push({ action: "removed", subject: `Workflow ${site.name}/${stale.name}`, detail: "with its revisions" });
  }
  return newlyLive;
}

function revisionContent(workflow: WorkflowDefinition): RevisionContent {
  const { method, template, variableBar, code, codePath, limits, anonymous } = workflow;
  return { method, template, variableBar, code, codePath, limits, anonymous };
}

function refuseNewOverlaps(after: StoredConfiguration, newlyLive: ReadonlyMap<string, ReadonlySet<string>>): void {
  const reasons = after.sites.flatMap((site) =>
    // Without Release Management every environment serves the same revisions, so one look covers them all.
    (site.releaseManagement ? site.environments : [PRODUCTION]).flatMap((environment) =>
      refusedOverlaps(site, environment, liveRevisions(site, environment, after.releases), newlyLive.get(site.name) ?? new Set()),
    ),
  );
  if (reasons.length > 0) throw new StoreRefusal("conflict", `the configuration would make requests ambiguous:\n${reasons.map((reason) => `  - ${reason}`).join("\n")}`);
}

async function applyUsers(tx: SqlExecutor, desired: DesiredState, now: number, changes: Change[]): Promise<void> {
  const usersBefore = await listUsers(tx);
  for (const user of desired.users) {
    const before = usersBefore.find((existing) => existing.name === user.name);
    let passwordHash: string;
    if ("hash" in user.password) passwordHash = user.password.hash;
    // A password from the environment keeps its stored hash while it still verifies: a new salt is a change.
    else if (before && (await verifyPassword(user.password.plain, before.passwordHash))) passwordHash = before.passwordHash;
    else passwordHash = await hashPassword(user.password.plain);
    const record = { name: user.name, passwordHash, sites: user.sites };
    if (!before) {
      await insertUser(tx, record, now);
      changes.push({ action: "created", subject: `user ${user.name}` });
    } else if (before.passwordHash !== passwordHash || JSON.stringify(before.sites) !== JSON.stringify(user.sites)) {
      await updateUser(tx, before.id, record, now);
      changes.push({ action: "updated", subject: `user ${user.name}`, detail: before.passwordHash !== passwordHash ? "password" : "sites" });
    }
  }
  for (const stale of usersBefore.filter((existing) => !desired.users.some((user) => user.name === existing.name))) {
    await deleteUser(tx, stale.id);
    changes.push({ action: "removed", subject: `user ${stale.name}` });
  }
}

async function applyApiKeys(tx: SqlExecutor, desired: DesiredState, now: number, changes: Change[]): Promise<void> {
  const keysBefore = await listApiKeys(tx);
  const sites = await listSites(tx);
  for (const key of desired.apiKeys) {
    const subject = `API key ${key.site}/${key.name}`;
    const before = keysBefore.find((existing) => existing.site === key.site && existing.name === key.name);
    if (before?.source === "cli") {
      throw new StoreRefusal("conflict", `${subject} was created with \`flowgate keys create\`; rename the key in the file, or remove the other with \`flowgate keys delete\``);
    }
    if (!before) {
      await insertApiKey(tx, sites.find((site) => site.name === key.site)!.id, key, "file", now);
      changes.push({ action: "created", subject });
    } else if (JSON.stringify([before.environment, before.workflows, before.disabled, before.primaryHash, before.secondaryHash]) !== JSON.stringify([key.environment, key.workflows, key.disabled, key.primaryHash, key.secondaryHash])) {
      await updateApiKey(tx, before.id, key, now);
      changes.push({ action: "updated", subject });
    }
  }
  const stale = keysBefore.filter((existing) => existing.source === "file" && !desired.apiKeys.some((key) => key.site === existing.site && key.name === existing.name));
  for (const key of stale) {
    await deleteApiKey(tx, key.id);
    changes.push({ action: "removed", subject: `API key ${key.site}/${key.name}` });
  }
}
