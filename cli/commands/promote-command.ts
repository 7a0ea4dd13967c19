// `flowgate promote WORKFLOW --site S --to ENV [--revision N]`: Release Management.

import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import type { Io } from "../output";
import { printJson } from "../output";
import { withStore } from "../store-command";

export function parsePositiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError(`"${text}" is not a positive whole number`);
  return value;
}

export function registerPromoteCommand(program: Command, io: Io): void {
  program
    .command("promote")
    .description("publish a revision of a Workflow into a Site Environment (Sites with Release Management)")
    .argument("<workflow>", "the Workflow's name")
    .requiredOption("--site <site>", "the Site")
    .requiredOption("--to <environment>", "the Site Environment, such as Production or Test")
    .option("--revision <number>", "the revision to publish (default: the latest)", parsePositiveInteger)
    .option("--json", "print the result as JSON")
    .action(async (workflow: string, options: { site: string; to: string; revision?: number; json?: boolean }, command: Command) => {
      const report = await withStore(command, io, (store) =>
        store.promote({ site: options.site, workflow, environment: options.to, ...(options.revision !== undefined ? { revision: options.revision } : {}) }),
      );
      if (options.json) printJson(io, report);
      else if (!report.changed) io.stdout(`${report.site}/${report.workflow} revision ${report.revision} is already live in ${report.environment}; nothing changed\n`);
      else io.stdout(`${report.site}/${report.workflow}: ${report.environment} now serves revision ${report.revision}${report.previous === null ? "" : ` (was ${report.previous})`}\n`);
    });
}
