// Reads the whole stored configuration into plain records, in one pass per table.

import type { SqlExecutor } from "./database";
import type { Release, Revision, StoredConfiguration, StoredSite } from "./model";
import { readDeployment } from "./queries/deployment";
import { listSites } from "./queries/sites";
import { listReleases, listRevisions, listWorkflows } from "./queries/workflows";
import { listApiKeys, listUsers } from "./queries/credentials";

export async function loadConfiguration(tx: SqlExecutor): Promise<StoredConfiguration> {
  const { settings, version } = await readDeployment(tx);
  const [siteRows, workflowRows, revisionRows, releaseRows, userRows, keyRows] = [
    await listSites(tx),
    await listWorkflows(tx),
    await listRevisions(tx),
    await listReleases(tx),
    await listUsers(tx),
    await listApiKeys(tx),
  ];
  const siteName = new Map(siteRows.map((site) => [site.id, site.name]));
  const workflowOf = new Map(workflowRows.map((workflow) => [workflow.id, workflow]));

  const sites: StoredSite[] = siteRows.map(({ id, ...site }) => ({
    ...site,
    workflows: workflowRows
      .filter((workflow) => workflow.siteId === id)
      .map((workflow) => ({
        name: workflow.name,
        allowOverlapWith: workflow.allowOverlapWith,
        revisions: revisionRows
          .filter((revision) => revision.workflowId === workflow.id)
          .map(({ workflowId: _, ...revision }): Revision => ({ ...revision, site: site.name, workflow: workflow.name })),
      })),
  }));
  const releases: Release[] = releaseRows.map((release) => {
    const workflow = workflowOf.get(release.workflowId)!;
    return { site: siteName.get(workflow.siteId)!, workflow: workflow.name, environment: release.environment, revision: release.revision, releasedAt: release.releasedAt };
  });
  return {
    version,
    deployment: settings,
    sites,
    releases,
    users: userRows.map(({ id: _, ...user }) => user),
    apiKeys: keyRows.map(({ id: _, siteId: __, ...key }) => key),
  };
}
