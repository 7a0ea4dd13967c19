#!/usr/bin/env node
// The `flowgate` executable.

import { spawn } from "node:child_process";
import { runCli } from "./program";
import { processIo } from "./output";

// Commands that run Workflows use isolated-vm, which on Node 20 and later needs Node started without its startup
// snapshot. When that flag is missing, run this same command again in a Node that has it.
const SANDBOX_COMMANDS = new Set(["serve", "runner"]);
const NO_SNAPSHOT = "--no-node-snapshot";

function commandName(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--data-dir" || arg === "--database-url") index++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

const args = process.argv.slice(2);
if (SANDBOX_COMMANDS.has(commandName(args) ?? "") && !process.execArgv.includes(NO_SNAPSHOT)) {
  const child = spawn(process.execPath, [NO_SNAPSHOT, ...process.execArgv, __filename, ...args], { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
} else {
  runCli(args, processIo()).then((code) => {
    process.exitCode = code;
  });
}
