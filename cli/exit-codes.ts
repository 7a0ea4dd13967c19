// The exit codes of every `flowgate` command, so scripts can act on them (documented in the README).

export const EXIT = {
  ok: 0,
  /** Something unexpected: a bug, or an error no other code covers. */
  failure: 1,
  /** The command line itself is wrong. */
  usage: 2,
  /** The configuration file has errors. */
  invalidConfiguration: 3,
  /** Refused: the change would conflict with what is configured (overlapping bindings, a name in use). */
  conflict: 4,
  /** What was named does not exist, or (explain) no Workflow would answer. */
  notFound: 5,
  /** The store cannot be reached or opened. */
  storeUnavailable: 6,
  /** A DNS update failed; nothing was saved. */
  dns: 7,
} as const;

/** A failure a command reports with its own exit code and a message for the person who ran it. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}
