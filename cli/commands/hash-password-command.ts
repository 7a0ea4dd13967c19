// `flowgate hash-password`: the scrypt hash to put in flowgate.yaml, from a password read on standard input so
// that it never appears in the shell's history or the process list.

import type { Command } from "commander";
import type { Io } from "../output";
import { CliError, EXIT } from "../exit-codes";
import { hashPassword } from "../../plugins/flowgate/auth/secret-hash";

export function registerHashPasswordCommand(program: Command, io: Io): void {
  program
    .command("hash-password")
    .description("print the scrypt hash of a password read from standard input (for users' password.hash)")
    .action(async () => {
      const password = (await io.readStdin()).replace(/\r?\n$/, "");
      if (password === "") throw new CliError(EXIT.usage, "no password on standard input; try: printf %s 'the password' | flowgate hash-password");
      io.stdout(`${await hashPassword(password)}\n`);
    });
}
