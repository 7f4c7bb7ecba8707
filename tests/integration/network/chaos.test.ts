// docs/p2p.md "Chaos runs", the short version of `make chaos`: two seeded schedules of network
// faults (kernel loss in namespaces, one-way loss, proxy delays, stalls, refusals and resets,
// the leader isolated) on real producer processes, one CFT network of three and one BFT network
// of four. After each: no two nodes held different irreversible blocks at one height, every
// transaction acknowledged final is on every node, every push answered, and the chain went on
// within the bound after the heal. Each schedule's steps are printed as they are taken; a failing
// seed replays with `make chaos SEED=<seed> WINDOW=8000`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runSchedule } from '../../lib/chaos/run-schedule.js';
import { drawSchedule } from '../../lib/chaos/schedule.js';
import { testBundle } from '../../lib/test-bundle.js';

const WINDOW_MS = 8_000;
/** Seed 7: CFT, 3 producers, the leader and others isolated in the kernel, one-way loss, a stall, a cut. Seed 22: BFT, 4 producers, one-way loss, delays, the leader refused by the proxies. */
const SEEDS = [7, 22];

for (const seed of SEEDS) {
  test(`chaos schedule ${seed}: safety, final transactions and progress after the heal`, async () => {
    const schedule = drawSchedule(seed, { windowMs: WINDOW_MS });
    const result = await runSchedule(schedule, await testBundle(), (line) => console.log(line));
    assert.equal(result.violations, [], `seed ${seed}`);
    assert.ok(result.finalTransactions > 0, 'transactions became final');
    assert.ok(result.recoveredMs !== undefined, 'the chain went on after the heal');
  });
}

test.run();
