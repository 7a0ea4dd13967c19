import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["spec/**/*.test.ts"],
    reporters: ["default", "./spec/summary-reporter.ts"],
    // Workflows run in isolated-vm, which needs Node started without its startup snapshot (Node 20 and later).
    pool: "forks",
    execArgv: ["--no-node-snapshot"],
  },
});
