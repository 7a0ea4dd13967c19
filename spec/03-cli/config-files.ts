// Test helpers: a flowgate.yaml and its Workflow code in a temporary folder.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Writes `yaml` as flowgate.yaml, and for each `code:` path it names the module in `files`, or a trivial one.
 */
export function configFolder(yaml: string, files: Record<string, string> = {}): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "flowgate-config-"));
  const file = join(dir, "flowgate.yaml");
  writeFileSync(file, yaml);
  for (const match of yaml.matchAll(/code:\s*([^\s,}]+)/g)) {
    const path = join(dir, match[1]!);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, files[match[1]!] ?? `export default () => ({ result: "${match[1]}" });\n`);
  }
  return { dir, file };
}

export const MINIMAL = `sites:
  - name: acme
    subdomain: acme
    workflows:
      - name: customer
        method: GET
        template: /customers/{id}
        variableBar: { inputs: [id], outputs: [name] }
        code: workflows/customer.js
`;
