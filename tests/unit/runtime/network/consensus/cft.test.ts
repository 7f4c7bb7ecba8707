// docs/p2p.md §4 (CFT), driven event by event: elections, votes, confirms, leader commit, joint
// consensus and the election timer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Cft } from '../../../../../runtime/network/consensus/cft.js';
import { cftThreshold } from '../../../../../runtime/chain/quorum.js';
import type { CftHead, CftMessage, CftReady } from '../../../../../runtime/network/consensus/cft-io.js';

const [A, B, C, D, E] = [1n, 2n, 3n, 4n, 5n];
const T = 3000;
/** A prompt election's turn (one slot). */
const SLOT = 1000;

function node(self: bigint | null, groups: bigint[][], random = 0.5): { cft: Cft; ready: CftReady } {
  const cft = new Cft({ random: () => random, now: () => 0, baseTimeoutMs: T, promptElectionMs: SLOT });
  return { cft, ready: cft.step({ type: 'producers', groups, self }) };
}

const head = (num: number, term: number, producer: bigint): CftHead => ({ num, term, producer });
const receive = (cft: Cft, message: CftMessage) => cft.step({ type: 'receive', message });
const vote = (term: number, candidateId: bigint, voterId: bigint, voteGranted = true): CftMessage =>
  ({ kind: 'RequestVoteResponse', body: { term, candidateId, voterId, voteGranted } });
const confirm = (term: number, followerId: bigint, headNum: number): CftMessage => ({ kind: 'ConfirmMessage', body: { term, followerId, headNum } });
const request = (term: number, candidateId: bigint, lastLogIndex: number, lastLogTerm: number): CftMessage =>
  ({ kind: 'RequestVoteRequest', body: { term, candidateId, lastLogIndex, lastLogTerm } });

/** A leader of term 1 over A, B, C that has produced blocks `from`..`to`. */
function leaderOfThree(from: number, to: number): Cft {
  const { cft } = node(A, [[A, B, C]]);
  cft.step({ type: 'timeout', quorumReachable: false });
  assert.is(receive(cft, vote(1, A, B)).lead, 1);
  for (let n = from; n <= to; n++) cft.step({ type: 'head', head: head(n, 1, A), commitIndex: 0 });
  return cft;
}

test('quorum (ProducerSet::threshold): n/2 + 1', () => {
  assert.equal([1, 2, 3, 4, 5].map(cftThreshold), [1, 2, 2, 3, 3]);
});

test('§4 step 1: a producer follows with an election timer in [T, 2T); any other node does not vote', () => {
  const producer = node(A, [[A, B, C]], 0.25);
  assert.is(producer.cft.role, 'follower');
  assert.is(producer.ready.timerMs, T * 1.25);
  const other = node(D, [[A, B, C]]);
  assert.is(other.cft.role, 'nonvoting');
  assert.is(other.ready.timerMs, undefined);
  assert.is(other.cft.step({ type: 'timeout', quorumReachable: true }).sends.length, 0, 'a non-producer never stands');
});

test('§4 step 2: the sole producer elects itself at once, and each of its blocks commits at once', () => {
  const { cft, ready } = node(A, [[A]]);
  assert.is(cft.role, 'leader');
  assert.is(ready.lead, 1);
  assert.is(cft.step({ type: 'head', head: head(5, 1, A), commitIndex: 4 }).commit, 5);
  assert.is(cft.step({ type: 'head', head: head(6, 1, A), commitIndex: 5 }).commit, 6);
  const finalAlready = cft.step({ type: 'head', head: head(7, 1, A), commitIndex: 7 });
  assert.ok(finalAlready.timerMs !== undefined, 'a head already final (its header says so) still keeps the leader in office');
});

test('§4 step 3: on timeout a follower becomes candidate of the next term and asks every producer', () => {
  const { cft } = node(A, [[A, B, C]]);
  cft.step({ type: 'head', head: head(9, 4, C), commitIndex: 7 });
  const ready = cft.step({ type: 'timeout', quorumReachable: false });
  assert.is(cft.role, 'candidate');
  assert.is(cft.currentTerm, 5);
  assert.equal(ready.sends, [{ to: 'producers', message: request(5, A, 9, 4) }]);
  assert.is(ready.timerMs, T * 1.5, 'the timer restarts');
});

test('§4 step 3: the timeout grows x1.5 while a quorum is reachable, up to 5 minutes', () => {
  const { cft } = node(A, [[A, B, C]], 0);
  assert.is(cft.step({ type: 'timeout', quorumReachable: false }).timerMs, T);
  assert.is(cft.step({ type: 'timeout', quorumReachable: true }).timerMs, T * 1.5);
  assert.is(cft.step({ type: 'timeout', quorumReachable: true }).timerMs, T * 2.25);
  let last = 0;
  for (let i = 0; i < 40; i++) last = cft.step({ type: 'timeout', quorumReachable: true }).timerMs!;
  assert.is(last, 5 * 60 * 1000);
});

test('a follower that loses its route to the leader stands in its turn, not after the election timeout', () => {
  // B and C follow A in term 2; the producers' order after A is B, C.
  const follower = (self: bigint) => {
    const { cft } = node(self, [[A, B, C]], 0.5);
    cft.step({ type: 'routes', reachable: [A, B, C].filter((p) => p !== self) });
    cft.step({ type: 'head', head: head(7, 2, A), commitIndex: 5 });
    return cft;
  };
  const b = follower(B), c = follower(C);
  const lostAtB = b.step({ type: 'routes', reachable: [C] });
  const lostAtC = c.step({ type: 'routes', reachable: [B] });
  assert.is(lostAtB.timerMs, SLOT * 0.125, 'B, first after A, stands at once');
  assert.is(lostAtC.timerMs, SLOT * 1.125, 'C waits a slot for B');
  assert.is(b.step({ type: 'head', head: head(7, 2, A), commitIndex: 5 }).timerMs, undefined, 'the lost leader\'s block, passed on by a peer, does not put it off');
  const standing = b.step({ type: 'timeout', quorumReachable: true });
  assert.equal(standing.sends, [{ to: 'producers', message: request(3, B, 7, 2) }]);
  assert.is(standing.timerMs, T * 1.5, 'a prompt election does not grow T');
  const granted = receive(c, request(3, B, 7, 2));
  assert.equal(granted.sends, [{ to: B, message: vote(3, B, C) }]);
  assert.is(granted.timerMs, T * 1.5, 'C, having voted for B, waits for it: its own turn is called off');
  assert.is(receive(b, vote(3, B, C)).lead, 3);
});

test('a prompt election is called off when the leader is reached again, and never comes without a route lost', () => {
  const { cft } = node(B, [[A, B, C]], 0.5);
  cft.step({ type: 'head', head: head(7, 2, A), commitIndex: 5 });
  assert.is(cft.step({ type: 'routes', reachable: [C] }).timerMs, undefined, 'never reached (a node just started): the election timeout runs');
  cft.step({ type: 'routes', reachable: [A, C] });
  assert.ok(cft.step({ type: 'routes', reachable: [C] }).timerMs! < SLOT);
  cft.step({ type: 'routes', reachable: [A, C] });
  const due = cft.step({ type: 'timeout', quorumReachable: true });
  assert.equal(due.sends, [], 'A is reached again: no election');
  assert.is(due.timerMs, T * 1.5, 'the election timeout runs again, T unchanged');
  assert.is(cft.role, 'follower');
  assert.is(cft.currentTerm, 2);
});

test('§4 step 5: one vote per term, only to a candidate at least as up to date, answered either way', () => {
  const { cft } = node(B, [[A, B, C]]);
  cft.step({ type: 'head', head: head(10, 2, A), commitIndex: 8 });
  const stale = receive(cft, request(3, C, 9, 2));
  assert.equal(stale.sends, [{ to: C, message: vote(3, C, B, false) }], 'a shorter log at the same term');
  assert.equal(receive(cft, request(3, A, 10, 2)).sends, [{ to: A, message: vote(3, A, B, true) }]);
  assert.equal(receive(cft, request(3, C, 11, 2)).sends, [{ to: C, message: vote(3, C, B, false) }], 'already voted in term 3');
  assert.equal(receive(cft, request(4, C, 9, 3)).sends, [{ to: C, message: vote(4, C, B, true) }], 'a newer term frees the vote; a newer log term wins');
  assert.equal(receive(cft, request(5, D, 99, 9)).sends, [], 'not a producer: ignored');
});

test('§4 step 6: a candidate wins with more than half of the set, counting itself', () => {
  const { cft } = node(A, [[A, B, C, D, E]]);
  cft.step({ type: 'timeout', quorumReachable: false });
  assert.is(receive(cft, vote(1, A, B)).lead, undefined);
  assert.is(receive(cft, vote(1, A, B)).lead, undefined, 'the same voter counts once');
  assert.is(receive(cft, vote(1, A, C, false)).lead, undefined);
  assert.is(receive(cft, vote(0, A, D)).lead, undefined, 'an old term does not count');
  assert.is(receive(cft, vote(1, A, E)).lead, 1);
  assert.is(cft.role, 'leader');
});

test('§4 step 4: a newer term on any message makes a leader stop and follow', () => {
  const cft = leaderOfThree(5, 6);
  const ready = receive(cft, vote(3, B, C, false));
  assert.ok(ready.stopLeading);
  assert.is(cft.role, 'follower');
  assert.is(cft.currentTerm, 3);
});

test('§4 step 8: a follower confirms each new head of the current term to its producer', () => {
  const { cft } = node(B, [[A, B, C]]);
  const first = cft.step({ type: 'head', head: head(5, 2, A), commitIndex: 3 });
  assert.equal(first.sends, [{ to: A, message: confirm(2, B, 5) }]);
  assert.is(cft.currentTerm, 2, 'the header\'s term is adopted');
  assert.equal(cft.step({ type: 'head', head: head(3, 2, A), commitIndex: 3 }).sends, [], 'not above the commit index');
  assert.equal(cft.step({ type: 'head', head: head(6, 1, C), commitIndex: 3 }).sends, [], 'an older term');
});

test('§4 step 9: the leader commits the highest block a quorum confirmed, itself included', () => {
  const cft = leaderOfThree(2, 6);
  assert.is(receive(cft, confirm(1, B, 4)).commit, 4, 'A has 6, B 4: two of three have 4');
  assert.is(receive(cft, confirm(1, C, 3)).commit, undefined, 'C\'s 3 changes nothing');
  assert.is(receive(cft, confirm(1, C, 6)).commit, 6);
  assert.is(receive(cft, confirm(1, B, 7)).commit, undefined, 'a block the leader does not have');
});

test('§4 step 9: confirms of another term, or below the leader\'s first block of its term, are ignored', () => {
  const cft = leaderOfThree(5, 8);
  assert.is(receive(cft, confirm(0, B, 8)).commit, undefined);
  assert.is(receive(cft, confirm(1, B, 4)).commit, undefined, 'block 4 is not of this term');
  assert.is(receive(cft, confirm(1, B, 6)).commit, 6);
});

test('§4 step 3: a leader whose commits stall steps down at its timeout and stands again', () => {
  const cft = leaderOfThree(2, 3);
  const ready = cft.step({ type: 'timeout', quorumReachable: true });
  assert.ok(ready.stopLeading);
  assert.is(cft.role, 'candidate');
  assert.is(cft.currentTerm, 2);
});

test('§6.1 joint consensus: a candidate needs a majority of both sets, a leader commits what both confirm', () => {
  const { cft } = node(A, [[A, B, C], [A, D, E]]);
  cft.step({ type: 'timeout', quorumReachable: false });
  assert.is(receive(cft, vote(1, A, B)).lead, undefined, 'the old set has its majority, the new one not');
  assert.is(receive(cft, vote(1, A, D)).lead, 1);
  cft.step({ type: 'head', head: head(4, 1, A), commitIndex: 0 });
  assert.is(receive(cft, confirm(1, B, 4)).commit, undefined, 'only the old set confirmed');
  assert.is(receive(cft, confirm(1, E, 4)).commit, 4);
});

test('§6.1: a candidate whose sets change gives up its election; votes asked in one set never count in another', () => {
  const { cft } = node(A, [[A, B, C]]);
  cft.step({ type: 'timeout', quorumReachable: false });
  // Joint consensus begins while the votes are out: B's vote, asked for in the old set, comes after.
  cft.step({ type: 'producers', groups: [[A, B, C], [A, D, E]], self: A });
  assert.is(cft.role, 'follower');
  assert.is(receive(cft, vote(1, A, B)).lead, undefined);
  assert.is(receive(cft, vote(1, A, D)).lead, undefined);
  assert.is(cft.role, 'follower');
  // At its timer it stands again, in the sets in force now.
  cft.step({ type: 'timeout', quorumReachable: false });
  assert.is(cft.currentTerm, 2);
  receive(cft, vote(2, A, B));
  assert.is(receive(cft, vote(2, A, E)).lead, 2);
});

test('§4 step 4: a candidate that applies a block of its own term by another producer follows that leader', () => {
  const { cft } = node(A, [[A, B, C, D, E]]);
  cft.step({ type: 'timeout', quorumReachable: false });
  receive(cft, vote(1, A, B));
  cft.step({ type: 'head', head: head(3, 1, C), commitIndex: 0 });
  assert.is(cft.role, 'follower');
  assert.is(receive(cft, vote(1, A, D)).lead, undefined, 'a third vote does not make a second leader of term 1');
});

test('§6.1 CFT→BFT joint consensus: the new BFT set counts with its own quorum, for votes and for commits', () => {
  // Old CFT A, B, C; new BFT A, B, D (BFT's quorum of three is all three, a majority is two).
  const { cft } = node(A, [[A, B, C]]);
  cft.step({ type: 'producers', groups: [[A, B, C], [A, B, D]], self: A, nextIsBft: true });
  cft.step({ type: 'timeout', quorumReachable: false });
  assert.is(receive(cft, vote(1, A, B)).lead, undefined, 'a majority of the BFT set is not its quorum');
  assert.is(receive(cft, vote(1, A, D)).lead, 1);
  cft.step({ type: 'head', head: head(4, 1, A), commitIndex: 0 });
  assert.is(receive(cft, confirm(1, B, 4)).commit, undefined, 'two of the BFT set confirmed');
  assert.is(receive(cft, confirm(1, D, 4)).commit, 4);
});

test('§6.1 CFT→BFT joint consensus: producers only of the new set start no elections', () => {
  const { cft } = node(null, []);
  const ready = cft.step({ type: 'producers', groups: [[A, B, C], [A, B, D]], self: D, nextIsBft: true });
  assert.is(cft.role, 'follower', 'it votes');
  assert.is(ready.timerMs, undefined);
  assert.is(cft.step({ type: 'timeout', quorumReachable: true }).sends.length, 0, 'a stale timer makes no candidate');
  assert.is(cft.step({ type: 'head', head: head(3, 1, A), commitIndex: 0 }).timerMs, undefined);
  const granted = receive(cft, request(2, A, 3, 1));
  assert.is((granted.sends[0]!.message as Extract<CftMessage, { kind: 'RequestVoteResponse' }>).body.voteGranted, true, 'it still votes');
  // Under CFT→CFT joint consensus a new producer stands.
  const cftNext = node(D, [[A, B, C], [A, B, D]]);
  assert.ok(cftNext.ready.timerMs !== undefined);
});

test('§6.1 BFT→CFT: the term goes on from BFT\'s; BFT\'s leader stays leader of it, the others follow it', () => {
  const leader = node(null, []).cft;
  const led = leader.step({ type: 'producers', groups: [[A, B, C]], self: A, fromBft: { term: 7, leading: true } });
  assert.is(leader.role, 'leader');
  assert.is(led.lead, 7);
  assert.is(leader.currentTerm, 7);
  assert.is(leader.vote, A, 'it votes for no one else in its term');
  assert.ok(led.timerMs !== undefined, 'a leader whose commits stall steps down');
  leader.step({ type: 'head', head: head(20, 7, A), commitIndex: 18 });
  assert.is(receive(leader, confirm(7, B, 20)).commit, 20);
  const follower = node(null, []).cft;
  const follows = follower.step({ type: 'producers', groups: [[A, B, C]], self: B, fromBft: { term: 7, leading: false } });
  assert.is(follower.role, 'follower');
  assert.is(follower.currentTerm, 7);
  assert.ok(follows.timerMs !== undefined);
  const confirmed = follower.step({ type: 'head', head: head(20, 7, A), commitIndex: 18 });
  assert.equal(confirmed.sends.map((s) => s.to), [A], 'it confirms the leader\'s block of the term');
  // BFT's leader that is no producer of the CFT set does not lead.
  const gone = node(null, []).cft;
  assert.is(gone.step({ type: 'producers', groups: [[A, B, C]], self: D, fromBft: { term: 7, leading: true } }).lead, undefined);
  assert.is(gone.role, 'nonvoting');
});

test('§6.1 BFT→CFT: a CFT leader from before BFT ran is no leader when CFT takes over again', () => {
  const cft = leaderOfThree(2, 3);
  const ready = cft.step({ type: 'producers', groups: [[A, B, C]], self: A, fromBft: { term: 4, leading: false } });
  assert.ok(ready.stopLeading);
  assert.is(ready.lead, undefined);
  assert.is(cft.role, 'follower');
  assert.is(cft.currentTerm, 4);
});

test('a producer leaving the sets stops leading and voting', () => {
  const cft = leaderOfThree(2, 3);
  const ready = cft.step({ type: 'producers', groups: [[B, C]], self: A });
  assert.ok(ready.stopLeading);
  assert.ok(ready.stopTimer);
  assert.is(cft.role, 'nonvoting');
});

test.run();
