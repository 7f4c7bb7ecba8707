// Block sync, CFT and BFT in the in-process network simulator (docs/p2p.md "What we build" item
// 7): seeded schedules of one producer or several taking the lead, with link loss, duplicates,
// partitions, crashes, producer-set changes (CFT and BFT), switches from CFT to BFT and back, and
// (BFT) up to f Byzantine producers in each set; the
// invariants checked after every step on the honest nodes (one leader per CFT term, one
// irreversible block per height, nothing irreversible reverts), every honest node at the best head
// within the bound, the last producer set asked for in force at the end (joint consensus over),
// and with several
// producers irreversibility moving on within the stated bound after the faults (schedule.ts
// livenessBoundMs: for CFT eight election timeouts at the timeout the faults left, for BFT the f of
// every set plus 4 view-change timeouts growing x1.5 from it, plus 20 slots). `make simulate` runs thousands; a
// failing seed replays with `node scripts/simulate.js 1 <seed>`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runSimulations } from '../../../../../runtime/network/simulator/run-simulations.js';
import { drawSchedule, switchesAlgorithm } from '../../../../../runtime/network/simulator/schedule.js';
import { runSimulation } from '../../../../../runtime/network/simulator/simulation.js';

test('300 seeded schedules keep every invariant and converge', () => {
  const summary = runSimulations(1, 300);
  assert.equal(summary.failures, []);
  assert.ok(summary.steps > 300 * 100, `only ${summary.steps} steps`);
});

test('the schedules include CFT networks of 2 to 7 producers as well as single producers', () => {
  const counts = new Set([...Array(300).keys()].map((i) => drawSchedule(i + 1).producerCount));
  assert.equal([...counts].sort(), [1, 2, 3, 4, 5, 6, 7]);
});

test('a third of the CFT schedules change the producer set, to between 1 and 7 of the nodes', () => {
  const changes = [...Array(600).keys()].flatMap((i) => drawSchedule(i + 1).producerChanges);
  const sizes = new Set(changes.map((c) => c.producers.length));
  assert.ok(changes.length > 200, `${changes.length} changes`);
  assert.equal([...sizes].sort(), [1, 2, 3, 4, 5, 6, 7]);
});

test('the schedules include BFT networks of 4 to 7 producers with up to f Byzantine producers of each behaviour', () => {
  const bft = [...Array(300).keys()].map((i) => drawSchedule(i + 1)).filter((s) => s.algorithm === 'bft');
  assert.equal([...new Set(bft.map((s) => s.producerCount))].sort(), [4, 5, 6, 7]);
  for (const s of bft) assert.ok(s.byzantine.length <= Math.floor((s.producerCount - 1) / 3), `seed ${s.seed}: more than f Byzantine`);
  const behaviours = new Set(bft.flatMap((s) => s.byzantine.map((b) => b.behaviour)));
  assert.equal([...behaviours].sort(), ['equivocate', 'withhold']);
  assert.ok(bft.some((s) => s.byzantine.length === 2), 'two Byzantine among 7');
});

test('a third of the BFT schedules change the producer set, to 4 to 7 nodes of which at most f are Byzantine', () => {
  const bft = [...Array(600).keys()].map((i) => drawSchedule(i + 1)).filter((s) => s.algorithm === 'bft');
  const changing = bft.filter((s) => s.producerChanges.length > 0);
  assert.ok(changing.length > bft.length / 5 && changing.length < bft.length / 2, `${changing.length} of ${bft.length}`);
  let withByzantine = 0;
  for (const s of changing) {
    for (const { producers } of s.producerChanges) {
      assert.ok(producers.length >= 4 && producers.length <= 7, `seed ${s.seed}: a set of ${producers.length}`);
      const faulty = s.byzantine.filter((b) => producers.includes(b.node)).length;
      assert.ok(faulty <= Math.floor((producers.length - 1) / 3), `seed ${s.seed}: more than f Byzantine in ${producers.join(',')}`);
      if (faulty > 0) withByzantine++;
    }
  }
  assert.ok(withByzantine > 10, `only ${withByzantine} new sets with a Byzantine producer`);
});

test('some CFT schedules switch to BFT with 4 to 7 producers and back to CFT with 1 to 7 (docs/p2p.md §6.1)', () => {
  const switching = [...Array(300).keys()].map((i) => drawSchedule(i + 1)).filter(switchesAlgorithm);
  assert.ok(switching.length >= 20, `${switching.length} schedules switch`);
  for (const s of switching) {
    assert.equal(s.producerChanges.map((c) => c.algorithm), ['bft', 'cft'], `seed ${s.seed}`);
    assert.ok(s.producerChanges[0]!.producers.length >= 4, `seed ${s.seed}: BFT with fewer than 4`);
    assert.is(s.byzantine.length, 0);
  }
  const backSizes = new Set(switching.map((s) => s.producerChanges[1]!.producers.length));
  assert.ok(backSizes.has(1) && [...backSizes].some((n) => n > 3), `back to CFT with ${[...backSizes].join(', ')} producers`);
  const bft = [...Array(300).keys()].map((i) => drawSchedule(i + 1)).filter((s) => s.algorithm === 'bft');
  assert.ok(bft.every((s) => !switchesAlgorithm(s)), 'a BFT schedule changes its producers but never switches algorithm');
});

test('a seed reproduces its run exactly', () => {
  assert.equal(runSimulation(42), runSimulation(42));
  assert.is.not(runSimulation(42).steps, runSimulation(43).steps);
});

test.run();
