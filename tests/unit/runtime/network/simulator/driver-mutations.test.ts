// The simulator catches a broken consensus driver (docs/p2p.md "What we build" 7): the node and
// the simulator run the same driver (runtime/network/consensus/driver.ts), so a deliberate bug in
// it, applied in-process through the simulator's driver factory, must show as violations in a
// batch of seeded schedules, while the same schedules with the driver as it is show none (so a
// mutation that changed nothing would fail these tests).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Cft } from '../../../../../runtime/network/consensus/cft.js';
import type { CftOptions } from '../../../../../runtime/network/consensus/cft-io.js';
import { ConsensusDriver } from '../../../../../runtime/network/consensus/driver.js';
import { drawSchedule, switchesAlgorithm, type Schedule } from '../../../../../runtime/network/simulator/schedule.js';
import type { DriverFactory } from '../../../../../runtime/network/simulator/sim-context.js';
import { runSimulation } from '../../../../../runtime/network/simulator/simulation.js';

/** CFT counting one vote fewer than a quorum, for elections and for commits. */
class ShortQuorumCft extends Cft {
  protected override quorumOf(i: number): number {
    return Math.max(1, super.quorumOf(i) - 1);
  }
}

class ShortQuorumDriver extends ConsensusDriver<string, number> {
  protected override makeCft(options: CftOptions): Cft {
    return new ShortQuorumCft(options);
  }
}

/** A driver that lets CFT go on when BFT takes over: it neither stops CFT's timer nor stops leading. */
class NoHandOverDriver extends ConsensusDriver<string, number> {
  protected override handOverToBft(): void {}
}

/** The first `count` seeds from 1 whose schedule is `wanted`. */
function seedsWhere(wanted: (schedule: Schedule) => boolean, count: number): number[] {
  const seeds: number[] = [];
  for (let seed = 1; seeds.length < count; seed++) if (wanted(drawSchedule(seed))) seeds.push(seed);
  return seeds;
}

/** The seeds among `seeds` whose run broke an invariant or a bound, with the driver `makeDriver` makes (the real one by default). */
function failingSeeds(seeds: readonly number[], makeDriver?: DriverFactory): number[] {
  return seeds.filter((seed) => runSimulation(seed, makeDriver ? { makeDriver } : {}).violations.length > 0);
}

test('a driver whose CFT commits and elects one vote short of a quorum breaks the invariants', () => {
  const seeds = seedsWhere((s) => s.cft && s.algorithm === 'cft' && s.producerCount >= 3 && s.producerChanges.length === 0 && s.faults.length > 0, 12);
  assert.equal(failingSeeds(seeds), [], 'the driver as it is keeps every invariant on these seeds');
  const caught = failingSeeds(seeds, (options) => new ShortQuorumDriver(options));
  assert.ok(caught.length > 0, `none of seeds ${seeds.join(' ')} found the mutation`);
});

test('a driver that skips the hand-over from CFT to BFT breaks the invariants', () => {
  const seeds = seedsWhere(switchesAlgorithm, 12);
  assert.equal(failingSeeds(seeds), [], 'the driver as it is keeps every invariant on these seeds');
  const caught = failingSeeds(seeds, (options) => new NoHandOverDriver(options));
  assert.ok(caught.length > 0, `none of seeds ${seeds.join(' ')} found the mutation`);
});

test.run();
