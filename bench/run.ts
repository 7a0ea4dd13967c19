// Runs one benchmark: `npm run bench -- <name>` loads bench/<name>.ts and awaits its default export.

import { existsSync } from "node:fs";
import { join } from "node:path";

async function main(): Promise<void> {
  const name = process.argv[2];
  const file = name ? join(__dirname, `${name}.ts`) : "";
  if (!name || !/^[a-z0-9-]+$/.test(name) || !existsSync(file)) {
    console.error(`usage: npm run bench -- <name>, where bench/<name>.ts exists${name ? ` (no benchmark "${name}")` : ""}`);
    process.exit(2);
  }
  const bench = (await import(file)) as { default: () => Promise<void> | void };
  await bench.default();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
