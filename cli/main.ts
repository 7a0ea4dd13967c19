#!/usr/bin/env node
// The `flowgate` executable.

import { runCli } from "./program";
import { processIo } from "./output";

runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
