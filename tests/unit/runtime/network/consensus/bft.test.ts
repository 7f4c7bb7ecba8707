// docs/p2p.md §5 (BFT), driven event by event: leaders, view changes and term readiness, prepare
// and commit quorums, the forbidden-fork rule, aux-data proofs, the view-change timer and joint
// consensus counting. Signatures are tokens naming what was signed; verify checks the token.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Bft, bftLeader } from '../../../../../runtime/network/consensus/bft.js';
import { bftThreshold } from '../../../../../runtime/chain/quorum.js';
import type { BftBlock, BftGroup, BftKept, BftMessage, BftReady, BftUnsigned } from '../../../../../runtime/network/consensus/bft-io.js';
import { PRE_GENESIS } from '../../../../../runtime/network/sync/block-header.js';

type Sig = string;
const [A, B, C, D, E] = [1n, 2n, 3n, 4n, 5n];
const T = 10_000;
const BFT4: BftGroup = { algorithm: 'bft', producers: [A, B, C, D] };

const tokenOf = (kind: string, id: string, producer: bigint) => `${kind}/${id}/${producer}`;
function sign(message: BftUnsigned<Sig>): Sig {
  const b = message.body;
  return message.kind === 'ViewChangeMessage' ? `VC/${b.producer}/${(b as { term: number }).term}` : tokenOf(message.kind, (b as { blockId: string }).blockId, b.producer);
}

const verify = (kind: string, id: string, producer: bigint, signature: Sig) => signature === tokenOf(kind, id, producer);

function node(self: bigint | null, groups: BftGroup[] = [BFT4], restored?: BftKept<Sig>): { bft: Bft<Sig>; ready: BftReady<Sig> } {
  const bft = new Bft<Sig>({ baseTimeoutMs: T, sign, verify, restored });
  return { bft, ready: bft.step({ type: 'producers', groups, self }) };
}

/** A block id: its number big-endian in the first four bytes (docs/p2p.md §3.2), then a label. */
function idOf(num: number, label: string): string {
  return num.toString(16).padStart(8, '0') + Buffer.from(label).toString('hex').padEnd(56, '0').slice(0, 56).toUpperCase();
}

function block(num: number, label: string, previous: BftBlock | undefined, term: number, producer: bigint, groups: BftGroup[] = [BFT4]): BftBlock {
  return { id: idOf(num, label), num, previous: previous?.id ?? PRE_GENESIS.id, term, producer, commitNum: 1, groups };
}

const viewChange = (term: number, producer: bigint, best?: BftBlock, preparers: bigint[] = []): BftMessage<Sig> => ({
  kind: 'ViewChangeMessage',
  body: {
    term, producer, bestPrepared: best?.id ?? PRE_GENESIS.id, bestPreparedTerm: best?.term ?? 0,
    prepares: preparers.map((p) => ({ producer: p, signature: tokenOf('PrepareMessage', best!.id, p) })),
  },
  signature: `VC/${producer}/${term}`,
});
const prepare = (b: BftBlock, producer: bigint): BftMessage<Sig> => ({ kind: 'PrepareMessage', body: { blockId: b.id, producer }, signature: tokenOf('PrepareMessage', b.id, producer) });
const commit = (b: BftBlock, producer: bigint): BftMessage<Sig> => ({ kind: 'CommitMessage', body: { blockId: b.id, producer }, signature: tokenOf('CommitMessage', b.id, producer) });
const receive = (bft: Bft<Sig>, message: BftMessage<Sig>) => bft.step({ type: 'receive', message });
const kinds = (ready: BftReady<Sig>) => ready.sends.map((s) => s.message.kind);

/** Everyone's view change for `term` naming nothing prepared: the term is ready. */
function ready(bft: Bft<Sig>, term: number, producers = [A, B, C, D]): BftReady<Sig>[] {
  return producers.map((p) => receive(bft, viewChange(term, p)));
}

/** Block `b` is known and is the head. */
function applyHead(bft: Bft<Sig>, b: BftBlock, commitIndex = 1): BftReady<Sig> {
  bft.step({ type: 'block', block: b });
  return bft.step({ type: 'head', head: b, commitIndex });
}

test('§5.1 quorum floor(2n/3)+1 and the round-robin leader over the producers sorted as u64', () => {
  assert.equal([1, 2, 3, 4, 5, 6, 7].map(bftThreshold), [1, 2, 3, 3, 4, 5, 5]);
  assert.equal([0, 1, 2, 3, 4, 5].map((t) => bftLeader(BFT4, t)), [A, B, C, D, A, B]);
});

test('§5.2 a producer announces its view of the term to everyone and asks for theirs; others do not vote', () => {
  const { bft, ready: r } = node(B);
  assert.is(bft.role, 'follower');
  assert.equal(kinds(r), ['ViewChangeMessage', 'RequestViewMessage']);
  assert.is(r.sends[0]!.to, 'all');
  const other = node(E);
  assert.is(other.bft.role, 'nonvoting');
  assert.equal(kinds(other.ready), ['RequestViewMessage'], 'a non-producer only asks for the views (it signs none)');
});

test('§5.2 term ready: the leader leads only once a quorum of the term agrees with its view change', () => {
  const { bft } = node(A);
  assert.is(receive(bft, viewChange(0, B)).lead, undefined, 'two of four is not a quorum');
  const third = receive(bft, viewChange(0, C));
  assert.is(third.lead, 0, 'A, B and C make a quorum of 3');
  assert.is(bft.role, 'leader');
});

test('§5.2 view-change order: for the leader a better best prepared block is newer, for others a worse one', () => {
  const { bft } = node(D);
  const x = block(2, 'x', undefined, 0, A);
  applyHead(bft, x);
  const better = viewChange(0, B, x, [A, B, C]);
  assert.ok(receive(bft, viewChange(0, B)).sends.some((s) => s.to === 'all'), 'the first view change of B is flooded on');
  assert.is(receive(bft, better).sends.length, 0, 'a non-leader\'s better prepared block is older: not taken, not flooded');
  receive(bft, viewChange(0, A));
  assert.ok(receive(bft, viewChange(0, A, x, [A, B, C])).sends.some((s) => s.message.kind === 'ViewChangeMessage' && s.to === 'all'), 'the leader\'s better one is newer');
});

test('§5.3 prepare then commit: a follower prepares the head of the ready term and commits on a prepare quorum; a commit quorum makes it irreversible', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  const r = applyHead(bft, x);
  assert.equal(kinds(r), ['PrepareMessage']);
  assert.is(r.sends[0]!.to, 'producers');
  assert.equal(kinds(receive(bft, prepare(x, A))), [], 'two prepares of four');
  assert.equal(kinds(receive(bft, prepare(x, C))), ['CommitMessage'], 'three prepares: commit');
  assert.is(receive(bft, commit(x, A)).commit, undefined);
  const done = receive(bft, commit(x, D));
  assert.is(done.commit, 2);
  assert.equal(bft.proofOf(x.id)?.commits.map((c) => c.producer), [A, B, D], 'the proof lists the committers sorted');
});

test('§5.3 no prepare outside the ready current term', () => {
  const { bft } = node(B);
  const x = block(2, 'x', undefined, 0, A);
  assert.equal(kinds(applyHead(bft, x)), [], 'term 0 is not ready yet');
  ready(bft, 0);
  const y = block(3, 'y', x, 1, B);
  assert.equal(kinds(applyHead(bft, y)), [], 'a block of another term');
});

test('§5.3 prepares and commits for a block not yet known wait for it', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  for (const p of [A, C, D]) receive(bft, prepare(x, p));
  for (const p of [A, C]) receive(bft, commit(x, p));
  bft.step({ type: 'block', block: x });
  const r = bft.step({ type: 'head', head: x, commitIndex: 1 });
  assert.is(r.commit, 2, 'the held commits and this node\'s own make a quorum');
});

test('§5.3 forbidden fork: after preparing a block, a block of the same term on another branch is not prepared; in a later term it is', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  applyHead(bft, x);
  const y = block(2, 'y', undefined, 0, A);
  assert.equal(kinds(applyHead(bft, y)), [], 'an equivocating leader\'s second block of the term');
  const restarted = node(B, [BFT4], bft.kept).bft;
  ready(restarted, 0);
  assert.equal(kinds(applyHead(restarted, y)), [], 'the rule holds across a restart (kept state)');
  ready(bft, 1);
  const z = block(2, 'z', undefined, 1, B);
  assert.equal(kinds(applyHead(bft, z)), ['PrepareMessage'], 'a fork in a later term');
});

test('§5.3 forbidden fork: a confirmed block the commit has passed is on the committed chain, so the blocks after it are prepared', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  assert.equal(kinds(applyHead(bft, x)), ['PrepareMessage']);
  const y = block(3, 'y', x, 0, A);
  const z = block(4, 'z', y, 0, A);
  bft.step({ type: 'block', block: y });
  // B lags: its chain committed y (from a later block's proof) before B prepared anything after x.
  assert.equal(kinds(applyHead(bft, z, 3)), ['PrepareMessage'], 'x is forgotten below the commit, but it was on the committed chain');
});

test('§5.2 timer: started when a quorum is in the term; on expiry without a commit it grows x1.5 and the term moves on', () => {
  const { bft, ready: start } = node(B);
  assert.is(start.timerMs, T, 'every producer starts in term 0');
  const r = bft.step({ type: 'timeout' });
  assert.is(bft.currentTerm, 1);
  assert.is(bft.viewTimeoutMs, T * 1.5);
  assert.equal(kinds(r), ['ViewChangeMessage']);
  assert.is((r.sends[0]!.message as Extract<BftMessage<Sig>, { kind: 'ViewChangeMessage' }>).body.term, 1);
  assert.is(r.timerMs, undefined, 'only B is in term 1');
  assert.is(receive(bft, viewChange(1, A)).timerMs, undefined);
  assert.is(receive(bft, viewChange(1, C)).timerMs, T * 1.5, 'A, B and C are a quorum in term 1');
  assert.is(bft.step({ type: 'timeout' }).sends.length, 1, 'the new timer moves on to term 2');
  assert.is(bft.currentTerm, 2);
});

test('§5.2 (b) more than a third ahead: jump to their term, skipping terms whose leader moved past them', () => {
  const { bft } = node(A);
  receive(bft, viewChange(6, B));
  assert.is(bft.currentTerm, 0, 'one of four is not more than a third');
  receive(bft, viewChange(5, C));
  assert.is(bft.currentTerm, 6, 'two are ahead, at 5 or later; term 5 is skipped: its leader B is already in term 6');
});

test('§5.4 aux data: a block from the wrong leader is refused; a proof needs a threshold of valid commits; a valid one commits for an observer', () => {
  const { bft } = node(null);
  const x = block(2, 'x', undefined, 0, A);
  const y = { ...block(3, 'y', x, 0, A), commitNum: 2 };
  assert.is(bft.checkBlock(block(3, 'w', x, 0, B)), 'Wrong producer');
  bft.step({ type: 'block', block: x });
  bft.step({ type: 'head', head: x, commitIndex: 1 });
  const confirm = (ps: bigint[]) => ({ blockNum: 2, commits: ps.map((p) => ({ producer: p, signature: tokenOf('CommitMessage', x.id, p) })) });
  assert.match(bft.checkBlock(y, confirm([A, B]))!, /fewer than the threshold 3/);
  assert.match(bft.checkBlock(y, confirm([B, A, C]))!, /not sorted/);
  assert.match(bft.checkBlock(y, { blockNum: 2, commits: [A, B, C].map((p) => ({ producer: p, signature: 'forged' })) })!, /Invalid/);
  assert.is(bft.checkBlock(y, confirm([A, B, C])), undefined);
  assert.is(bft.step({ type: 'block', block: y, aux: confirm([A, B, C]) }).commit, 2);
});

test('§5.3 a block committed off the head chain: fork choice goes to it, and it commits once it is the head chain', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  const y = block(2, 'y', undefined, 0, A);
  applyHead(bft, x);
  bft.step({ type: 'block', block: y });
  for (const p of [A, C, D]) receive(bft, prepare(y, p));
  const r = receive(bft, commit(y, A));
  receive(bft, commit(y, C));
  const last = receive(bft, commit(y, D));
  assert.is(last.commit, undefined, 'not on the head chain yet');
  assert.is([r, last].map((s) => s.root).find((v) => v !== undefined), y.id);
  assert.is(bft.step({ type: 'head', head: y, commitIndex: 1 }).commit, 2);
});

test('§6.1 joint consensus: each group needs its own threshold; a CFT group 1 does not prepare but commits', () => {
  const next: BftGroup = { algorithm: 'cft', producers: [C, E] };
  const { bft } = node(B, [BFT4, next]);
  ready(bft, 0, [A, B, C, D]);
  receive(bft, viewChange(0, E));
  const x = block(2, 'x', undefined, 0, A, [BFT4, next]);
  applyHead(bft, x);
  assert.equal(kinds(receive(bft, prepare(x, E))), [], 'E is only in the CFT group: its prepare does not count');
  assert.equal(kinds(receive(bft, prepare(x, A))), [], 'A and B: two of four');
  assert.equal(kinds(receive(bft, prepare(x, C))), ['CommitMessage'], 'group 0 has three; group 1 needs no prepares');
  receive(bft, commit(x, A));
  assert.is(receive(bft, commit(x, D)).commit, undefined, 'group 0 has a quorum, group 1 (C, E) none yet');
  receive(bft, commit(x, C));
  assert.is(receive(bft, commit(x, E)).commit, 2, 'C and E: the CFT majority of group 1');
});

test('§5.2 a restarted producer keeps its best prepared block and its proof; a view change naming the committed block needs no prepares', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  applyHead(bft, x);
  for (const p of [A, C]) receive(bft, prepare(x, p));
  // A restarted node learns its blocks before its producers, as the simulator and the node start.
  const restarted = { bft: new Bft<Sig>({ baseTimeoutMs: T, sign, verify, restored: bft.kept }) };
  restarted.bft.step({ type: 'block', block: x });
  const announced = restarted.bft.step({ type: 'producers', groups: [BFT4], self: B }).sends[0]!.message as Extract<BftMessage<Sig>, { kind: 'ViewChangeMessage' }>;
  assert.is(announced.body.bestPrepared, x.id, 'it never names less than it saw prepared');
  assert.is(announced.body.bestPreparedTerm, 0);
  assert.equal(announced.body.prepares.map((c) => c.producer), [A, B, C], 'with the prepares that prove it');
  applyHead(restarted.bft, x, 2);
  receive(restarted.bft, viewChange(1, C));
  const r = receive(restarted.bft, viewChange(1, D));
  assert.is(restarted.bft.currentTerm, 1);
  assert.is(r.lead, 1, 'B leads term 1: its view names x, committed, with no prepares kept, and C and D are no further');
});

test('§6.1 a leader restarted in BFT→BFT joint consensus still holds its committed block\'s proof, which the block ending joint consensus carries', () => {
  const groups: BftGroup[] = [BFT4, { algorithm: 'bft', producers: [B, C, D, E] }];
  const { bft } = node(A, groups);
  ready(bft, 0, [A, B, C, D, E]);
  const x = block(2, 'x', undefined, 0, A, groups);
  applyHead(bft, x);
  for (const p of [B, C, D, E]) receive(bft, prepare(x, p));
  const commits = [B, C, D, E].map((p) => receive(bft, commit(x, p)).commit);
  assert.ok(commits.includes(2), 'x is committed by quorums of both sets');
  const proof = bft.proofOf(x.id)!;
  assert.equal(proof.nextCommits?.map((c) => c.producer), [B, C, D], 'the commits of the new set too, as they were at its quorum');
  // A restarted node learns its blocks, then its producers and its head, as the simulator and the node start.
  const restarted = new Bft<Sig>({ baseTimeoutMs: T, sign, verify, restored: bft.kept });
  restarted.step({ type: 'block', block: x });
  restarted.step({ type: 'producers', groups, self: A });
  restarted.step({ type: 'head', head: x, commitIndex: 2 });
  assert.equal(restarted.proofOf(x.id), proof, 'the proof survived the restart');
  // Block 3 names block 2, where the change began, as irreversible: it ends joint consensus and must carry the proof.
  const ending: BftBlock = { ...block(3, 'y', x, 0, A, groups), commitNum: 2, nextSince: 2 };
  assert.match(restarted.checkBlock(ending) ?? '', /^Missing irreversibility proof/);
  assert.is(restarted.checkBlock(ending, restarted.proofOf(x.id)), undefined, 'and proves the change irreversible in the block that ends joint consensus');
});

test('§5.1 sync-term retry: a view change that could not be signed is tried again after the retry time and at once when the keys change', () => {
  let locked = true;
  const bft = new Bft<Sig>({ baseTimeoutMs: T, retryViewChangeMs: 3 * T, verify, sign: (message) => (locked ? undefined : sign(message)) });
  const start = bft.step({ type: 'producers', groups: [BFT4], self: B });
  assert.equal(kinds(start), ['RequestViewMessage'], 'no view change without the key');
  const jumped = ready(bft, 1, [C, D]).at(-1)!;
  assert.is(bft.currentTerm, 1, 'C and D are ahead: B follows them to term 1');
  assert.is(jumped.retryViewChangeMs, 3 * T, 'its view change of term 1 is missing: a retry is asked for');
  const retried = bft.step({ type: 'retryViewChange' });
  assert.equal(kinds(retried), [], 'still locked: nothing is sent');
  assert.is(retried.retryViewChangeMs, 3 * T, 'and the retry is asked for again');
  locked = false;
  const unlocked = bft.step({ type: 'keysChanged' });
  assert.equal(kinds(unlocked), ['ViewChangeMessage'], 'unlocked: the view change goes out at once');
  assert.is(unlocked.sends[0]!.to, 'all');
  assert.is((unlocked.sends[0]!.message as Extract<BftMessage<Sig>, { kind: 'ViewChangeMessage' }>).body.term, 1);
  assert.is(unlocked.retryViewChangeMs, undefined);
  assert.is(unlocked.timerMs, T, 'B, C and D are a quorum in term 1: the view-change timer runs');
  const late = bft.step({ type: 'retryViewChange' });
  assert.equal([kinds(late), late.retryViewChangeMs], [[], undefined], 'a retry due after that finds the view in its term and does nothing');
});

test('§5.1 sync-term retry: none when the view change was signed, and none for a node that does not vote', () => {
  const { bft, ready: start } = node(B);
  assert.is(start.retryViewChangeMs, undefined);
  for (const event of [{ type: 'keysChanged' }, { type: 'retryViewChange' }] as const) {
    const r = bft.step(event);
    assert.equal([kinds(r), r.retryViewChangeMs], [[], undefined], `${event.type}: B's view is in the current term`);
  }
  const observer = new Bft<Sig>({ baseTimeoutMs: T, verify, sign: () => undefined });
  assert.is(observer.step({ type: 'producers', groups: [BFT4], self: E }).retryViewChangeMs, undefined, 'E signs no view change');
  assert.equal(kinds(observer.step({ type: 'keysChanged' })), []);
});

test('irreversibility under BFT survives a restart: the committed block is kept with its proof, for the leader\'s aux data', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  applyHead(bft, x);
  for (const p of [A, C]) receive(bft, prepare(x, p));
  for (const p of [A, C]) receive(bft, commit(x, p));
  const proof = bft.proofOf(x.id);
  assert.ok(proof);
  assert.equal(bft.kept.committed, { id: x.id, num: 2, term: 0, proof });
  const restarted = new Bft<Sig>({ baseTimeoutMs: T, sign, verify, restored: bft.kept });
  assert.equal(restarted.proofOf(x.id), proof, 'a leader can still prove the block it names as its commitNum');
  assert.equal(restarted.kept.committed, { id: x.id, num: 2, term: 0, proof }, 'and keeps it until it commits another');
});

test('post_send_block: every prepare and commit held for a block is there to follow it to a peer', () => {
  const { bft } = node(B);
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A);
  assert.equal(bft.confirmsOf(x.id), [], 'nothing held for a block not seen');
  applyHead(bft, x);
  for (const p of [A, C]) receive(bft, prepare(x, p));
  receive(bft, commit(x, C));
  const held = bft.confirmsOf(x.id);
  const text = (m: BftMessage<Sig>) => JSON.stringify(m, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v));
  const expected = [prepare(x, A), prepare(x, B), prepare(x, C), commit(x, B), commit(x, C)];
  assert.equal(held.map(text).sort(), expected.map(text).sort(), 'its own and those received, signed as they came');
  const late = node(D).bft;
  ready(late, 0);
  late.step({ type: 'block', block: x });
  for (const message of held) receive(late, message);
  assert.equal(late.confirmsOf(x.id).filter((m) => m.kind === 'CommitMessage').length, 3, 'a late node learns the commits (its own too, as it prepared the block late)');
});

test('Missing irreversibility proof: a BFT block that ends joint consensus must carry the commit proof', () => {
  const NEXT: BftGroup = { algorithm: 'bft', producers: [A, B, C, E] };
  const { bft } = node(null, [BFT4, NEXT]);
  const changed = block(2, 'x', undefined, 0, A, [BFT4, NEXT]);
  const since = { ...changed, nextSince: 2 };
  bft.step({ type: 'block', block: since });
  // Block 3 names block 2, where the change began, as irreversible: it ends joint consensus.
  const ending: BftBlock = { ...block(3, 'y', since, 0, A, [BFT4, NEXT]), commitNum: 2, nextSince: 2 };
  assert.match(bft.checkBlock(ending) ?? '', /^Missing irreversibility proof/);
  const commitsOf = (producers: bigint[]) => producers.map((producer) => ({ producer, signature: tokenOf('CommitMessage', since.id, producer) }));
  const proof = { blockNum: 2, commits: commitsOf([A, B, C]), nextCommits: commitsOf([A, B, E]) };
  assert.is(bft.checkBlock(ending, proof), undefined, 'with the proof it is taken');
  assert.is(bft.checkBlock({ ...ending, commitNum: 1 }), undefined, 'a block still in joint consensus needs none');
  const fromCft: BftBlock = { ...ending, groups: [{ algorithm: 'cft', producers: [A] }, NEXT] };
  assert.is(bft.checkBlock(fromCft), undefined, 'nor one whose current set is CFT (its header commits)');
});

test('§5.4 a producer whose claim changes with the sets signs for one of them: its commit counts in the proof of that set only', () => {
  // D's claim in the next set is a new key: its commit (made with its old one) does not verify there.
  const byGroup = (kind: string, id: string, producer: bigint, signature: Sig, group: number) => verify(kind, id, producer, signature) && !(producer === D && group === 1);
  const bft = new Bft<Sig>({ baseTimeoutMs: T, sign, verify: byGroup });
  bft.step({ type: 'producers', groups: [BFT4, BFT4], self: B });
  ready(bft, 0);
  const x = block(2, 'x', undefined, 0, A, [BFT4, BFT4]);
  applyHead(bft, x);
  for (const p of [A, C, D]) receive(bft, prepare(x, p));
  for (const p of [D, A]) receive(bft, commit(x, p));
  assert.is(bft.proofOf(x.id), undefined, 'A, B and D are a quorum of the current set only: D counts not in the next');
  receive(bft, commit(x, C));
  const proof = bft.proofOf(x.id);
  assert.ok(proof, 'committed: A, B and C are a quorum of each set');
  assert.equal(proof.commits.map((c) => c.producer), [A, B, C, D]);
  assert.equal(proof.nextCommits?.map((c) => c.producer), [A, B, C], "D's commit is left out of the next set's list");
  const y: BftBlock = { ...block(3, 'y', x, 0, A, [BFT4, BFT4]), commitNum: 2 };
  assert.is(bft.checkBlock(y, proof), undefined, 'the proof holds for both sets');
  const withD = { ...proof, nextCommits: [...proof.nextCommits!, { producer: D, signature: tokenOf('CommitMessage', x.id, D) }] };
  assert.is(bft.checkBlock(y, withD), `Invalid CommitMessage signature of ${D} for block 2`, 'checked with the claim of the set it is listed for');
});

test.run();
