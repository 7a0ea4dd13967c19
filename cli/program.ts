// The `flowgate` command line: every command, its help, and one place that turns failures into exit codes.

import { Command, CommanderError } from "commander";
import { CliError, EXIT } from "./exit-codes";
import type { Io } from "./output";
import { registerConfigurationCommands } from "./commands/configuration-commands";
import { registerPromoteCommand } from "./commands/promote-command";
import { registerListingCommands } from "./commands/listing-commands";
import { registerExplainCommand } from "./commands/explain-command";
import { registerLogsCommand } from "./commands/logs-command";
import { registerHashPasswordCommand } from "./commands/hash-password-command";
import { registerServerCommands } from "./commands/server-commands";
import { registerCredentialCommands } from "./commands/credential-commands";
import { registerKongConfigCommand } from "./commands/kong-config-command";
import { registerDnsCommand } from "./commands/dns-command";

function buildProgram(io: Io): Command {
  const program = new Command("flowgate")
    .description("Flowgate: automation Workflows as HTTP APIs")
    .option("--data-dir <dir>", "the embedded store's folder (default .flowgate, or FLOWGATE_DATA_DIR)")
    .option("--database-url <url>", "a PostgreSQL store instead of the embedded one (or FLOWGATE_DATABASE_URL)")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerConfigurationCommands(program, io);
  registerPromoteCommand(program, io);
  registerListingCommands(program, io);
  registerExplainCommand(program, io);
  registerLogsCommand(program, io);
  registerHashPasswordCommand(program, io);
  registerServerCommands(program, io);
  registerCredentialCommands(program, io);
  registerKongConfigCommand(program, io);
  registerDnsCommand(program, io);
  // Every subcommand, at any depth, reports its usage errors the same way as the program does.
  const configure = (command: Command): void => {
    command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr }).showHelpAfterError("(run with --help for usage)");
    command.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  return program;
}

/** Runs `flowgate` with `argv` (the words after the command name) and answers the exit code. */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const program = buildProgram(io);
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    await program.parseAsync([...argv], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      io.stderr(`flowgate: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`flowgate: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.failure;
  }
}
