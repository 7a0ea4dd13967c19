// `flowgate keys ...` (API keys made on the command line: the secret is shown once, at creation or rotation) and
// `flowgate sessions revoke` (legacy session tokens).

import type { Command } from "commander";
import type { Io } from "../output";
import { list, printJson, printTable } from "../output";
import { withStore } from "../store-command";
import type { KeyChange } from "../../store/api-keys";

function workflowList(text: string): "*" | string[] {
  return text === "*" ? "*" : text.split(",").map((name) => name.trim()).filter(Boolean);
}

function showSecret(io: Io, json: boolean | undefined, what: Record<string, unknown>, token: string): void {
  if (json) return printJson(io, { ...what, token });
  io.stdout(`${token}\n`);
  io.stderr("flowgate: this is the only time the key is shown; store it now (only its hash is kept)\n");
}

export function registerCredentialCommands(program: Command, io: Io): void {
  const keys = program.command("keys").description("manage API keys made on the command line (keys in flowgate.yaml are managed there)");

  keys
    .command("create")
    .description("make an API key and print its secret, once")
    .requiredOption("--site <site>", "the Site the key belongs to")
    .requiredOption("--name <name>", "the key's name (FgUsername, and 'Token-based Key: <name>' in activity logs)")
    .option("--env <environment>", "the Site Environment the key targets", "Production")
    .option("--workflows <names>", 'the Workflows it may call, comma-separated, or "*"', "*")
    .option("--json", "print the result as JSON")
    .action(async (options: { site: string; name: string; env: string; workflows: string; json?: boolean }, command: Command) => {
      const key = { site: options.site, name: options.name, environment: options.env, workflows: workflowList(options.workflows) };
      const token = await withStore(command, io, (store) => store.createApiKey(key));
      showSecret(io, options.json, key, token);
    });

  keys
    .command("list")
    .description("list API keys, without their secrets")
    .option("--site <site>", "only this Site's")
    .option("--json", "print the result as JSON")
    .action(async (options: { site?: string; json?: boolean }, command: Command) => {
      const configuration = await withStore(command, io, (store) => store.configuration());
      const rows = configuration.apiKeys
        .filter((key) => options.site === undefined || key.site === options.site)
        .map(({ primaryHash: _, secondaryHash, ...key }) => ({ ...key, secondary: secondaryHash !== null }));
      if (options.json) return printJson(io, { keys: rows });
      printTable(
        io,
        ["SITE", "KEY", "ENVIRONMENT", "WORKFLOWS", "STATE", "SECONDARY", "MANAGED BY"],
        rows.map((key) => [key.site, key.name, key.environment, list(key.workflows), key.disabled ? "disabled" : "enabled", key.secondary ? "yes" : "no", key.source === "file" ? "flowgate.yaml" : "command line"]),
      );
    });

  const change = (name: KeyChange, description: string) =>
    keys
      .command(name)
      .description(description)
      .requiredOption("--site <site>", "the Site")
      .requiredOption("--name <name>", "the key's name")
      .option("--json", "print the result as JSON")
      .action(async (options: { site: string; name: string; json?: boolean }, command: Command) => {
        const token = await withStore(command, io, (store) => store.changeApiKey(options.site, options.name, name));
        if (token !== null) return showSecret(io, options.json, { site: options.site, name: options.name }, token);
        if (options.json) printJson(io, { site: options.site, name: options.name, change: name });
        else io.stdout(`API key ${options.site}/${options.name}: ${name} done; every node sees it within seconds\n`);
      });
  change("rotate", "make a new secret; the old one stays valid as the secondary until retire-secondary");
  change("retire-secondary", "end the previous secret after a rotation");
  change("disable", "refuse the key everywhere within seconds");
  change("enable", "accept a disabled key again");
  change("delete", "remove the key");

  program
    .command("sessions")
    .description("legacy session tokens")
    .command("revoke")
    .description("revoke every session token of a user; each node stops accepting them within seconds")
    .requiredOption("--user <name>", "the user")
    .action(async (options: { user: string }, command: Command) => {
      const revoked = await withStore(command, io, (store) => store.revokeSessions(options.user));
      io.stdout(`revoked ${revoked} session(s) of ${options.user}\n`);
    });
}
