#!/usr/bin/env node
// commplan command line: plan, verify, cost and export communication schedules.
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
