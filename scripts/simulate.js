#!/usr/bin/env node
// Runs the block sync simulator (docs/p2p.md "What we build" item 7) over seeded schedules:
//   node scripts/simulate.js [count=2000] [first seed=1]
// Prints the schedules run, the steps taken and every violation with its seed; exits 1 on any.
// `node scripts/simulate.js 1 <seed>` replays one failing seed.
import { runSimulations } from '../dist/runtime/network/simulator/run-simulations.js';

const count = Number(process.argv[2] ?? 2000);
const first = Number(process.argv[3] ?? 1);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(first)) {
  console.error('usage: node scripts/simulate.js [count] [first seed]');
  process.exit(2);
}
const summary = runSimulations(first, count);
for (const { seed, violations } of summary.failures.slice(0, 20)) {
  console.log(`seed ${seed}: ${violations.length} violation(s)`);
  for (const v of violations.slice(0, 5)) console.log(`  ${v}`);
}
console.log(`${summary.schedules} schedules, ${summary.steps} steps, ${summary.failures.reduce((n, f) => n + f.violations.length, 0)} violations`);
if (summary.failures.length > 0) {
  console.log(`failing seeds: ${summary.failures.map((f) => f.seed).join(' ')}`);
  process.exitCode = 1;
}
