// The consensus driver (docs/p2p.md "What we build" 5, 7; §6.1), driven event by event: the
// algorithm of the current set runs, CFT hands over to BFT (CFT stops leading and timing, BFT
// starts in the term after the head's) and BFT back to CFT (CFT goes on in BFT's term), and what
// a Ready asks to keep comes in the Ready whose messages depend on it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BftBlock, BftKept } from '../../../../../runtime/network/consensus/bft-io.js';
import { ConsensusDriver } from '../../../../../runtime/network/consensus/driver.js';
import type { DriverProducers, DriverReady, ProducerSet } from '../../../../../runtime/network/consensus/driver-io.js';

const [A, B, C, D] = [1n, 2n, 3n, 4n];
const cft = (...producers: bigint[]): ProducerSet => ({ algorithm: 'cft', producers });
const bft = (...producers: bigint[]): ProducerSet => ({ algorithm: 'bft', producers });
const producers = (sets: ProducerSet[], self: bigint | null, headTerm: number): DriverProducers => ({ sets, self, headTerm });

function driver(restored: { bft?: BftKept<string>; headTerm?: number } = {}): ConsensusDriver<string, number> {
  return new ConsensusDriver<string, number>({
    cft: { random: () => 0.5, now: () => 0, baseTimeoutMs: 300, promptElectionMs: 100 },
    bft: { baseTimeoutMs: 1000, sign: (message) => `${message.kind}/${message.body.producer}`, verify: () => true },
    sameSignature: (a, b) => a === b,
    chainBlocks: () => [],
    restored: { headTerm: restored.headTerm ?? 0, ...(restored.bft ? { bft: restored.bft } : {}) },
  });
}

/** Block `num` of `term` by `producer`, made under `sets`. */
function block(num: number, term: number, producer: bigint, sets: ProducerSet[]): BftBlock {
  const id = (n: number) => n.toString(16).padStart(8, '0') + 'ab'.repeat(28);
  const groups = sets.map((s) => ({ algorithm: s.algorithm, producers: [...s.producers].sort((x, y) => (x < y ? -1 : 1)) }));
  return { id: id(num), num, previous: id(num - 1), term, producer, commitNum: num, groups };
}

const chainTypes = (ready: DriverReady<string, number>) => ready.chain.map((c) => (c.type === 'lead' ? `lead ${c.term} ${c.algorithm}` : c.type));

test('a sole CFT producer elects itself: the vote is kept in the Ready that leads, and the chain follows consensus', () => {
  const ready = driver().step({ type: 'start', producers: producers([cft(A)], A, 0), commitIndex: 0 });
  assert.equal(ready.persist.vote, { term: 1, votedFor: A });
  assert.equal(chainTypes(ready), ['follow', 'lead 1 cft']);
  assert.ok(ready.timers.some((t) => t.timer === 'election' && 'ms' in t), 'the election timer runs');
});

test('CFT hands over to BFT: CFT stops leading and timing, BFT starts in the term after the head and follows', () => {
  const d = driver();
  d.step({ type: 'start', producers: producers([cft(A)], A, 0), commitIndex: 0 });
  const sets = [bft(A, B, C, D)];
  const ready = d.step({ type: 'head', producers: producers(sets, A, 1), head: block(5, 1, A, sets), commitIndex: 5 });
  assert.equal(chainTypes(ready).slice(0, 2), ['stopLeading', 'follow']);
  assert.ok(ready.timers.some((t) => t.timer === 'election' && 'clear' in t), 'the election timer is cleared');
  assert.ok(d.bftActive);
  assert.is(ready.persist.bft?.term, 2, 'BFT starts in the term after the head\'s');
  // CFT waits: its timer firing now does nothing.
  assert.equal(d.step({ type: 'timeout', timer: 'election', reachable: [B, C, D] }).chain, []);
});

test('BFT hands back to CFT: CFT goes on in BFT\'s term', () => {
  const d = driver({ bft: { term: 7 }, headTerm: 3 });
  const bftSets = [bft(A, B, C, D)];
  d.step({ type: 'start', producers: producers(bftSets, A, 3), head: block(9, 3, C, bftSets), commitIndex: 8 });
  assert.ok(d.bftActive);
  const cftSets = [cft(A, B, C)];
  // The producers change without a head of BFT's term: only the hand-over can give CFT that term.
  const ready = d.step({ type: 'producers', producers: producers(cftSets, A, 3) });
  assert.not.ok(d.bftActive);
  assert.is(ready.persist.vote?.term, 7, 'CFT takes BFT\'s term');
  assert.ok(chainTypes(ready).includes('follow'));
});

test('under CFT a commit alone keeps nothing (the head\'s commitNum holds it); under BFT each commit is kept', () => {
  const d = driver();
  const cftSets = [cft(A, B, C)];
  d.step({ type: 'start', producers: producers(cftSets, B, 1), head: block(4, 1, A, cftSets), commitIndex: 2 });
  const cftCommits = [5, 6, 7].map((num) => d.step({ type: 'head', producers: producers(cftSets, B, 1), head: block(num, 1, A, cftSets), commitIndex: num - 2 }));
  assert.equal(cftCommits.map((ready) => ready.persist.bft), [undefined, undefined, undefined], 'no BFT state is written at CFT commits');
  const bftSets = [bft(A)];
  // A single BFT producer commits through its own headers (§5.3): each commit is BFT's, and kept.
  const handOver = d.step({ type: 'head', producers: producers(bftSets, A, 1), head: block(8, 1, A, bftSets), commitIndex: 6 });
  assert.ok(d.bftActive);
  assert.ok(handOver.persist.bft, 'the switch to BFT keeps its state');
  const bftCommit = d.step({ type: 'head', producers: producers(bftSets, A, 2), head: block(9, 2, A, bftSets), commitIndex: 6 });
  assert.is(bftCommit.persist.bft?.committed?.num, 9, 'a BFT commit is kept');
});

test.run();
