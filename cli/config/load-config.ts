// Loads a flowgate.yaml from disk into the desired state, or the list of problems that stand in the way.

import { readFileSync } from "node:fs";
import type { CheckOptions, ConfigCheck } from "./check-config";
import { checkConfig } from "./check-config";
import { loadConfigDocument } from "./load-document";

export function loadConfig(file: string, options: CheckOptions): ConfigCheck {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { ok: false, problems: [{ file, line: 1, column: 1, path: "", message: `cannot read the file: ${code}`, severity: "error" }] };
  }
  const loaded = loadConfigDocument(file, text);
  if (!loaded.ok) return loaded;
  return checkConfig(loaded.document, options);
}
