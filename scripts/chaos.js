#!/usr/bin/env node
// Chaos runs of real producer processes under network faults (docs/p2p.md "Chaos runs"):
//   node scripts/chaos.js [--minutes 6] [--first <seed>] [--window <ms>]   seeded schedules for that long
//   node scripts/chaos.js --seed <n> [--window <ms>] [--debug]             replays one schedule (--debug: the nodes log debug records)
// Prints every schedule's steps as they happen and every violation with its seed; exits 1 on any.
// Needs root (network namespaces) and the built tree (make chaos builds it).
import { stopNetworks } from '../dist/tests/lib/chaos/chaos-network.js';
import { runSchedules } from '../dist/tests/lib/chaos/run-schedules.js';
import { builtBundle } from '../dist/tests/lib/test-bundle.js';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = Number(args[i + 1]);
  if (!Number.isInteger(value)) {
    console.error(`--${name} takes a whole number; usage: node scripts/chaos.js [--seed n | --first n --minutes m] [--window ms]`);
    process.exit(2);
  }
  return value;
};
// Interrupted, the nodes and namespaces of the schedule under way go first.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.log(`${signal}: stopping the schedule under way`);
    stopNetworks().finally(() => process.exit(130));
  });
}
const seed = option('seed');
const windowMs = option('window') ?? 15_000;
const first = seed ?? option('first') ?? Math.floor(Math.random() * 1_000_000);
const summary = await runSchedules({
  first,
  count: seed !== undefined ? 1 : Infinity,
  untilMs: seed !== undefined ? Infinity : Date.now() + (option('minutes') ?? 6) * 60_000,
  windowMs,
  bundle: await builtBundle(),
  debugLogs: args.includes('--debug'),
  log: (line) => console.log(line),
});
console.log(`${summary.schedules} schedules (seeds ${first} to ${first + summary.schedules - 1}, ${windowMs} ms of faults each), ${summary.failures.length} failed`);
if (summary.failures.length > 0) {
  console.log(`failing seeds: ${summary.failures.join(' ')} (replay one: make chaos SEED=<seed>${windowMs !== 15_000 ? ` WINDOW=${windowMs}` : ''})`);
  process.exitCode = 1;
}
