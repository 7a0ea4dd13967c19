// Test helper: runs `flowgate` in this process against a temporary embedded store, capturing what it prints.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../cli/program";

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function cliIn(dataDir = mkdtempSync(join(tmpdir(), "flowgate-cli-")), environment: NodeJS.ProcessEnv = {}) {
  return {
    dataDir,
    async run(...argv: string[]): Promise<CliResult> {
      let stdout = "";
      let stderr = "";
      const code = await runCli(["--data-dir", dataDir, ...argv], {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        environment,
        readStdin: async () => environment.STDIN ?? "",
      });
      return { code, stdout, stderr };
    },
  };
}
