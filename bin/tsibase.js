#!/usr/bin/env node
import { cliModule } from '../dist/runtime/cli/cli-module.js';

const { main } = await import(cliModule().href);
process.exitCode = await main(process.argv.slice(2));
