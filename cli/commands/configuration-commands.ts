// `flowgate validate FILE` and `flowgate apply FILE`: check a flowgate.yaml, and make the store match it.

import type { Command } from "commander";
import { loadConfig } from "../config/load-config";
import type { ConfigProblem } from "../config/config-error";
import { formatProblem } from "../config/config-error";
import { CliError, EXIT } from "../exit-codes";
import type { Io } from "../output";
import { printJson } from "../output";
import { withStore } from "../store-command";
import type { DeploymentSettings, DesiredState } from "../../store/model";
import { dnsProvider } from "../../dns/dns-settings";
import { DnsFailure } from "../../dns/dns-provider";
import type { DnsProvider } from "../../dns/dns-provider";

function reportProblems(io: Io, problems: readonly ConfigProblem[], json: boolean): void {
  if (json) printJson(io, { valid: false, problems });
  for (const problem of problems) io.stderr(`${formatProblem(problem)}\n`);
}

/** The DNS provider the file names; a missing secret is a configuration error, found before anything is stored. */
export function providerFor(deployment: DeploymentSettings, io: Io): DnsProvider {
  try {
    return dnsProvider(deployment, io.environment);
  } catch (error) {
    throw new CliError(EXIT.invalidConfiguration, (error as Error).message);
  }
}

function summary(desired: DesiredState): string {
  const workflows = desired.sites.reduce((count, site) => count + site.workflows.length, 0);
  return `${desired.sites.length} Sites, ${workflows} Workflows, ${desired.users.length} users, ${desired.apiKeys.length} API keys`;
}

export function registerConfigurationCommands(program: Command, io: Io): void {
  program
    .command("validate")
    .description("check a flowgate.yaml without touching the store")
    .argument("<file>", "the configuration file")
    .option("--json", "print the result as JSON")
    .action(async (file: string, options: { json?: boolean }) => {
      const checked = loadConfig(file, { resolveSecrets: false, environment: io.environment });
      if (!checked.ok) {
        reportProblems(io, checked.problems, options.json === true);
        throw new CliError(EXIT.invalidConfiguration, `${file} has ${checked.problems.filter((problem) => problem.severity === "error").length} error(s)`);
      }
      if (options.json) printJson(io, { valid: true, warnings: checked.warnings });
      else {
        for (const warning of checked.warnings) io.stderr(`${formatProblem(warning)}\n`);
        io.stdout(`${file} is valid: ${summary(checked.desired)}\n`);
      }
    });

  program
    .command("apply")
    .description("make the store hold exactly what a flowgate.yaml describes, in one transaction; a file with errors changes nothing")
    .argument("<file>", "the configuration file")
    .option("--dry-run", "report the changes without making them")
    .option("--json", "print the result as JSON")
    .action(async (file: string, options: { dryRun?: boolean; json?: boolean }, command: Command) => {
      const checked = loadConfig(file, { resolveSecrets: true, environment: io.environment });
      if (!checked.ok) {
        reportProblems(io, checked.problems, options.json === true);
        throw new CliError(EXIT.invalidConfiguration, `${file} was not applied: it has errors`);
      }
      for (const warning of checked.warnings) io.stderr(`${formatProblem(warning)}\n`);
      const dns = providerFor(checked.desired.deployment, io);
      const report = await withStore(command, io, async (store) => {
        try {
          return await store.apply(checked.desired, { dryRun: options.dryRun === true, publishHosts: (changes) => dns.apply(changes) });
        } catch (error) {
          if (error instanceof DnsFailure) throw new CliError(EXIT.dns, error.message);
          throw error;
        }
      });
      if (options.json) {
        printJson(io, report);
        return;
      }
      const verb = report.dryRun ? "would be" : "";
      for (const change of report.changes) io.stdout(`${change.action.padEnd(9)} ${change.subject}${change.detail ? ` (${change.detail})` : ""}\n`);
      if (dns.name !== "wildcard") {
        for (const change of report.hostChanges) io.stdout(`dns       ${change.kind === "publish" ? `${change.host}${change.previous ? ` (replacing ${change.previous})` : ""}` : `removed ${change.host}`}\n`);
      }
      if (report.changes.length === 0) io.stdout("no changes: the store already matches the file\n");
      else io.stdout(report.dryRun ? `${report.changes.length} change(s) ${verb} made; nothing was written (dry run)\n` : `applied ${report.changes.length} change(s); configuration version ${report.version}\n`);
    });
}
