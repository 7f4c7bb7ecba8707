// Block sync in the in-process network simulator (docs/p2p.md "What we build" item 7): seeded
// schedules of link loss, duplicates, partitions and crashes, with the invariants checked after
// every step and every follower at the producer's head within the bound. `make simulate` runs
// thousands; a failing seed replays with `node scripts/simulate.js 1 <seed>`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runSimulations } from '../../../../../runtime/network/simulator/run-simulations.js';
import { runSimulation } from '../../../../../runtime/network/simulator/simulation.js';

test('300 seeded schedules keep every invariant and converge', () => {
  const summary = runSimulations(1, 300);
  assert.equal(summary.failures, []);
  assert.ok(summary.steps > 300 * 100, `only ${summary.steps} steps`);
});

test('a seed reproduces its run exactly', () => {
  assert.equal(runSimulation(42), runSimulation(42));
  assert.is.not(runSimulation(42).steps, runSimulation(43).steps);
});

test.run();
