// `flowgate sites`, `workflows`, `revisions` and `routes`: what is configured, and what is live where.

import type { Command } from "commander";
import type { Io } from "../output";
import { list, printJson, printTable } from "../output";
import { withStore } from "../store-command";
import { CliError, EXIT } from "../exit-codes";
import { buildSnapshot } from "../../store/snapshot";
import { liveRevisions } from "../../store/live-revisions";
import type { StoredConfiguration, StoredSite } from "../../store/model";
import { siteHost } from "../../plugins/flowgate/site-host";
import { DEFAULT_DEPLOYMENT } from "../../store/snapshot";
import { providerFor } from "./configuration-commands";
import type { DnsState } from "../../dns/dns-provider";

function describeDnsState(state: DnsState): string {
  switch (state.kind) {
    case "resolving":
      return "resolving";
    case "pending-resolution":
      return "created, pending resolution";
    case "missing":
      return "missing (run flowgate dns publish)";
    case "failed":
      return `failed: ${state.answer}`;
  }
}

function selectSites(configuration: StoredConfiguration, siteName: string | undefined): StoredSite[] {
  if (siteName === undefined) return [...configuration.sites];
  const site = configuration.sites.find((candidate) => candidate.name === siteName);
  if (!site) throw new CliError(EXIT.notFound, `no Site "${siteName}" (Sites: ${configuration.sites.map((known) => known.name).join(", ") || "none"})`);
  return [site];
}

/** Which revision each environment serves, such as "Production:1 Test:2". */
function liveSummary(configuration: StoredConfiguration, site: StoredSite, workflow: string): string {
  return site.environments
    .map((environment) => {
      const revision = liveRevisions(site, environment, configuration.releases).find((live) => live.workflow === workflow);
      return `${environment}:${revision ? revision.number : "-"}`;
    })
    .join(" ");
}

export function registerListingCommands(program: Command, io: Io): void {
  program
    .command("sites")
    .description("list the Sites, with their hosts and settings")
    .option("--json", "print the result as JSON")
    .action(async (options: { json?: boolean }, command: Command) => {
      const configuration = await withStore(command, io, (store) => store.configuration());
      const deployment = configuration.deployment ?? DEFAULT_DEPLOYMENT;
      const dns = providerFor(deployment, io);
      const states = await Promise.all(configuration.sites.map((site) => dns.state(siteHost(site, deployment))));
      const sites = configuration.sites.map((site, index) => ({
        name: site.name,
        host: siteHost(site, deployment),
        region: site.region,
        environments: site.environments,
        releaseManagement: site.releaseManagement,
        auth: site.authMethods,
        allowedOrigins: site.allowedOrigins,
        workflows: site.workflows.length,
        dns: states[index]!,
      }));
      if (options.json) return printJson(io, { version: configuration.version, sites });
      printTable(
        io,
        ["SITE", "HOST", "REGION", "ENVIRONMENTS", "RELEASES", "AUTH", "ALLOWED ORIGINS", "WORKFLOWS", "DNS"],
        sites.map((site) => [
          site.name,
          site.host,
          site.region,
          list(site.environments),
          site.releaseManagement ? "managed" : "latest",
          list(site.auth),
          list(site.allowedOrigins),
          String(site.workflows),
          describeDnsState(site.dns),
        ]),
        "no Sites: apply a flowgate.yaml first (flowgate apply FILE)",
      );
    });

  program
    .command("workflows")
    .description("list the Workflows, their bindings and the revision each environment serves")
    .option("--site <site>", "only this Site")
    .option("--json", "print the result as JSON")
    .action(async (options: { site?: string; json?: boolean }, command: Command) => {
      const configuration = await withStore(command, io, (store) => store.configuration());
      const rows = selectSites(configuration, options.site).flatMap((site) =>
        site.workflows.map((workflow) => {
          const latest = workflow.revisions[workflow.revisions.length - 1]!;
          return { site: site.name, workflow: workflow.name, method: latest.method, template: latest.template, latest: latest.number, live: liveSummary(configuration, site, workflow.name) };
        }),
      );
      if (options.json) return printJson(io, { workflows: rows });
      printTable(io, ["SITE", "WORKFLOW", "METHOD", "TEMPLATE (LATEST)", "LATEST", "LIVE"], rows.map((row) => [row.site, row.workflow, row.method, row.template, String(row.latest), row.live]));
    });

  program
    .command("revisions")
    .description("list the revisions of a Workflow, and where each is live")
    .argument("<workflow>", "the Workflow's name")
    .requiredOption("--site <site>", "the Site")
    .option("--json", "print the result as JSON")
    .action(async (workflowName: string, options: { site: string; json?: boolean }, command: Command) => {
      const configuration = await withStore(command, io, (store) => store.configuration());
      const [site] = selectSites(configuration, options.site);
      const workflow = site!.workflows.find((candidate) => candidate.name === workflowName);
      if (!workflow) throw new CliError(EXIT.notFound, `Site "${site!.name}" has no Workflow "${workflowName}"`);
      const rows = workflow.revisions.map((revision) => ({
        revision: revision.number,
        method: revision.method,
        template: revision.template,
        code: revision.codePath,
        contentHash: revision.contentHash,
        createdAt: new Date(revision.createdAt).toISOString(),
        liveIn: site!.environments.filter((environment) => liveRevisions(site!, environment, configuration.releases).some((live) => live.workflow === workflow.name && live.number === revision.number)),
      }));
      if (options.json) return printJson(io, { site: site!.name, workflow: workflow.name, revisions: rows });
      printTable(io, ["REVISION", "METHOD", "TEMPLATE", "CODE", "CREATED", "LIVE IN"], rows.map((row) => [String(row.revision), row.method, row.template, row.code, row.createdAt, list(row.liveIn)]));
    });

  program
    .command("routes")
    .description("list what each Site Environment routes: method, template, Workflow and revision")
    .option("--site <site>", "only this Site")
    .option("--env <environment>", "only this Site Environment")
    .option("--json", "print the result as JSON")
    .action(async (options: { site?: string; env?: string; json?: boolean }, command: Command) => {
      const configuration = await withStore(command, io, (store) => store.configuration());
      const wanted = new Set(selectSites(configuration, options.site).map((site) => site.name));
      const snapshot = buildSnapshot(configuration);
      const rows = [...snapshot.sitesByHost.values()]
        .filter((site) => wanted.has(site.site.name))
        .flatMap((site) =>
          [...site.environments.values()]
            .filter((environment) => options.env === undefined || environment.name.toLowerCase() === options.env.toLowerCase())
            .flatMap((environment) =>
              environment.bindings.map((binding) => ({
                site: site.site.name,
                host: site.host,
                environment: environment.name,
                method: binding.method,
                template: binding.template.text,
                workflow: binding.workflow.workflow,
                revision: binding.workflow.number,
              })),
            ),
        );
      if (options.json) return printJson(io, { routes: rows });
      printTable(io, ["SITE", "ENVIRONMENT", "METHOD", "TEMPLATE", "WORKFLOW", "REVISION"], rows.map((row) => [row.site, row.environment, row.method, row.template, row.workflow, String(row.revision)]));
    });
}
