// How commands speak: plain tables for people, one JSON document for scripts (--json).

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly environment: NodeJS.ProcessEnv;
  /** Standard input, read whole; for commands that take a secret without putting it on the command line. */
  readonly readStdin: () => Promise<string>;
}

export function processIo(): Io {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    environment: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}

export function printJson(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Columns padded to their widest cell; an empty list says so instead of printing a bare header. */
export function printTable(io: Io, headers: readonly string[], rows: readonly (readonly string[])[], empty = "(none)"): void {
  if (rows.length === 0) {
    io.stdout(`${empty}\n`);
    return;
  }
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
  io.stdout(`${[line(headers), ...rows.map(line)].join("\n")}\n`);
}

export function list(values: "*" | readonly string[]): string {
  return values === "*" ? "*" : values.join(",") || "-";
}
