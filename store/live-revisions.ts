// Which revision of each Workflow is live in a Site Environment (spec: "Release Management"), and the overlaps a
// change to that would bring in.

import type { Release, Revision, StoredSite } from "./model";
import type { Binding } from "../plugins/flowgate/routing/binding";
import { parseBindingMethod } from "../plugins/flowgate/routing/binding";
import { parseUriTemplate } from "../plugins/flowgate/templates/uri-template";
import { findOverlaps } from "../plugins/flowgate/routing/overlap";

/**
 * Without Release Management the latest revision is live in every environment. With it, the revision published
 * into the environment is, and a Workflow not published there is not served there.
 */
export function liveRevisions(site: StoredSite, environment: string, releases: readonly Release[]): Revision[] {
  return site.workflows.flatMap((workflow) => {
    if (!site.releaseManagement) return workflow.revisions.slice(-1);
    const release = releases.find((candidate) => candidate.site === site.name && candidate.workflow === workflow.name && candidate.environment === environment);
    const revision = release && workflow.revisions.find((candidate) => candidate.number === release.revision);
    return revision ? [revision] : [];
  });
}

/** The bindings of stored revisions. Stored templates were checked on the way in, so a failure here is a bug. */
export function bindingsOf(revisions: readonly Revision[]): Binding<Revision>[] {
  return revisions.map((revision) => {
    const method = parseBindingMethod(revision.method);
    const template = parseUriTemplate(revision.template);
    if (!method.ok || !template.ok) throw new Error(`stored revision ${revision.site}/${revision.workflow}#${revision.number} has an invalid binding`);
    return { method: method.method, template: template.template, workflow: revision };
  });
}

/**
 * Overlaps among `live` that involve one of the `changed` Workflows and that neither Workflow of the pair allows,
 * each said as the reason to refuse the change.
 */
export function refusedOverlaps(site: StoredSite, environment: string, live: readonly Revision[], changed: ReadonlySet<string>): string[] {
  const allows = (a: string, b: string) => site.workflows.find((workflow) => workflow.name === a)?.allowOverlapWith.includes(b) ?? false;
  return findOverlaps(bindingsOf(live))
    .filter(({ first, second }) => changed.has(first.workflow.workflow) || changed.has(second.workflow.workflow))
    .filter(({ first, second }) => !allows(first.workflow.workflow, second.workflow.workflow) && !allows(second.workflow.workflow, first.workflow.workflow))
    .map(({ first, second, examplePath }) => {
      // Name the changed Workflow first: it is the one that brings the overlap in.
      const [b, a] = changed.has(second.workflow.workflow) ? [second.workflow, first.workflow] : [first.workflow, second.workflow];
      const where = site.releaseManagement ? `environment ${environment}` : "every environment";
      return (
        `in Site "${site.name}", ${where}: ${b.method} ${b.template} ("${b.workflow}" revision ${b.number}) overlaps ` +
        `${a.method} ${a.template} ("${a.workflow}" revision ${a.number}); both match ${b.method} ${examplePath}. ` +
        `Make the templates mutually exclusive, or list one Workflow in the other's allowOverlapWith`
      );
    });
}
