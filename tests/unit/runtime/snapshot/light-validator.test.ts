// Light validation of a snapshot's headers (docs/p2p.md §5.5, §7.3) on a real chain whose producer
// changes its block key (A, then B, through producers::setProducers): the chain records each
// finished change as a ConsensusChangeRow; the selected headers validate from genesis to the
// producers of the head; a forged signature on an ending block, a wrong consensusState or a missing
// header are refused with SNAPSHOT_HEADERS. A BFT change (headers made here, commits signed with
// real keys) needs a quorum of commits of each set in the ending block's aux data; a CFT change may
// end with a block of a producer of either set. Through applySnapshot, the content with its headers loads
// into a new store, signed with key B; with a forged header it is refused and the store stays empty.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { equalBytes } from '../../../../host-api/encoding/bytes.js';
import {
  accountNumberFromName, bootTransactions, generateKeyPair, signDigest, signTransaction, systemAction, unpackBundle, type KeyPair,
} from '../../../../host-api/index.js';
import { blockId } from '../../../../host-api/chain/block-id.js';
import type { BlockHeader, Consensus, SignedBlock } from '../../../../host-api/types/index.js';
import { JointConsensus, type ConsensusChangeRow, type StatusRow } from '../../../../host-api/types/native.js';
import { genesisConsensus } from '../../../../runtime/chain/block-builder.js';
import { blockSignatureInfo } from '../../../../runtime/chain/block-signing.js';
import { sha256 } from '../../../../runtime/crypto/sha256.js';
import { encodeBlockConfirm, type ProducerConfirm } from '../../../../runtime/chain/commit-proofs.js';
import { signingPreimage } from '../../../../runtime/network/messages/index.js';
import { Chain } from '../../../../runtime/chain/chain.js';
import { readStatus } from '../../../../runtime/chain/chain-state.js';
import { readConsensusChanges } from '../../../../runtime/chain/consensus-changes.js';
import { producersOf } from '../../../../runtime/chain/consensus.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { Executor } from '../../../../runtime/wasm/executor.js';
import { claimVerifierOf } from '../../../../runtime/chain/claim-verdicts.js';
import { applySnapshot } from '../../../../runtime/snapshot/apply-snapshot.js';
import { KeptStates } from '../../../../runtime/snapshot/kept-states.js';
import { headerRows, lightHeaderBlocks, lightHeaders } from '../../../../runtime/snapshot/light-headers.js';
import { LightValidator } from '../../../../runtime/snapshot/light-validator.js';
import { SnapshotError } from '../../../../runtime/snapshot/snapshot-error.js';
import type { FileRow, SnapshotContent } from '../../../../runtime/snapshot/snapshot-file.js';
import { rowsOf } from '../../../../runtime/db/prefix-rows.js';
import { StateMerkle, STATE_DBS } from '../../../../runtime/snapshot/state-rows.js';
import { signState } from '../../../../runtime/snapshot/state-signatures.js';
import { testBundle } from '../../../lib/test-bundle.js';
import { applyRange, chainRows, inBlock, newNode, transaction } from '../chain/chain-nodes.js';

interface Context { dirs: string[]; store: LmdbStore; chain: Chain; keyB: KeyPair; headers: SignedBlock[]; keyChange: ConsensusChangeRow }
const test = suite<Context>('light validator');

const prod = accountNumberFromName('prod');
const verifySig = accountNumberFromName('verify-sig');

function tempDir(ctx: { dirs: string[] }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-light-'));
  ctx.dirs.push(dir);
  return dir;
}

test.before(async (ctx) => {
  ctx.dirs = [];
  const keyA = generateKeyPair();
  ctx.keyB = generateKeyPair();
  const keys = [keyA, ctx.keyB];
  ctx.store = LmdbStore.open(tempDir(ctx));
  ctx.chain = new Chain(ctx.store, new Engine(), {
    producer: 'prod',
    blockIntervalMs: 100,
    blockSigners: (claim) => {
      const key = keys.find((k) => equalBytes(claim.rawData, k.publicKey));
      return key && ((digest) => signDigest(key, digest));
    },
  });
  const boot = bootTransactions(unpackBundle(await testBundle()), { producer: 'prod', blockKey: keyA.publicKey });
  assert.is(ctx.chain.boot(boot.pushBoot).error, null, 'push_boot');
  await inBlock(ctx.chain, boot.later);
  const setB = signTransaction(transaction(ctx.chain, [systemAction('producers', 'producers.setProducers', {
    prods: [{ name: prod, auth: { service: verifySig, rawData: ctx.keyB.publicKey } }],
  })]), []);
  await inBlock(ctx.chain, [setB]);
  for (let i = 0; i < 3; i++) await inBlock(ctx.chain, []);
  const status = readStatus(ctx.store)!;
  const changes = readConsensusChanges(ctx.store);
  ctx.keyChange = changes[changes.length - 1]!;
  ctx.headers = lightHeaderBlocks(ctx.store, lightHeaders(changes, status));
});

test.after(async (ctx) => {
  ctx.chain.stop();
  await ctx.store.close();
  for (const dir of ctx.dirs) rmSync(dir, { recursive: true, force: true });
});

const headerAt = (ctx: Context, num: number) => ctx.chain.signedBlockAt(num)!.signed.block.header;
const currentOf = (consensus: JointConsensus) => JointConsensus.pack({ current: consensus.current, next: null });

/** Pushes the headers below the head into a validator for a new database; returns it. */
function validate(ctx: Context, headers: SignedBlock[]): LightValidator {
  const validator = new LightValidator(undefined, ctx.chain.claims);
  const head = ctx.chain.head!.header.blockNum;
  for (const h of headers) if (h.block.header.blockNum < head) validator.push(h);
  return validator;
}

function refusedHeaders(ctx: Context, headers: SignedBlock[], message: RegExp): void {
  try {
    validate(ctx, headers);
    assert.unreachable('expected SNAPSHOT_HEADERS');
  } catch (err) {
    assert.instance(err, SnapshotError, (err as Error).stack);
    assert.is((err as SnapshotError).code, 'SNAPSHOT_HEADERS');
    assert.match((err as Error).message, message);
  }
}

/** A copy of the headers with a change to the one of block `num`. */
function changed(headers: SignedBlock[], num: number, change: (h: SignedBlock) => SignedBlock): SignedBlock[] {
  return headers.map((h) => (h.block.header.blockNum === num ? change(h) : h));
}

test('the chain records genesis and the key change: start carries the new set, end commits it', (ctx) => {
  const changes = readConsensusChanges(ctx.store);
  assert.equal(changes[0], { start: 2, commit: 2, end: 2 }, 'genesis installs the boot producer');
  const { start, commit, end } = ctx.keyChange;
  const newSet = headerAt(ctx, start).newConsensus!;
  assert.ok(equalBytes(producersOf(newSet)[0]!.auth.rawData, ctx.keyB.publicKey), 'the last change sets key B');
  assert.is(headerAt(ctx, end).commitNum, commit);
  assert.ok(commit >= start && end >= commit);
  assert.is(readStatus(ctx.store)!.consensus.next, null, 'the change is over');
});

test('the selected headers validate from genesis to the head\'s producers', (ctx) => {
  const nums = ctx.headers.map((h) => h.block.header.blockNum);
  for (const num of [2, ctx.keyChange.start, ctx.keyChange.commit, ctx.keyChange.end]) assert.ok(nums.includes(num), `header ${num} is selected`);
  assert.ok(ctx.headers.every((h) => h.block.transactions.length === 0), 'transactions are stripped');
  const end = ctx.headers.find((h) => h.block.header.blockNum === ctx.keyChange.end)!;
  assert.ok(end.signature.length > 0, 'the ending block is signed (key A)');
  const validator = validate(ctx, ctx.headers);
  assert.equal(currentOf(validator.consensus), currentOf(readStatus(ctx.store)!.consensus));
});

test('a forged signature on the ending block is refused', (ctx) => {
  const forged = changed(ctx.headers, ctx.keyChange.end, (h) => ({ ...h, signature: Uint8Array.from(h.signature, (b, i) => (i === 10 ? b ^ 1 : b)) }));
  refusedHeaders(ctx, forged, /signature of prod does not verify/);
});

test('a wrong consensusState is refused', (ctx) => {
  const wrong = changed(ctx.headers, ctx.keyChange.start, (h) => ({ ...h, block: { ...h.block, header: { ...h.block.header, consensusState: new Uint8Array(32) } } }));
  refusedHeaders(ctx, wrong, /consensus state does not match/);
});

test('a missing or repeated header is refused', (ctx) => {
  refusedHeaders(ctx, ctx.headers.filter((h) => h.block.header.blockNum !== ctx.keyChange.start), /consensus state does not match/);
  const repeated = [ctx.headers[0]!, ...ctx.headers];
  refusedHeaders(ctx, repeated, /does not follow/);
});

/** The snapshot of the chain's head: its state, the given headers, the producer's signature with key B. */
function contentWith(ctx: Context, headers: SignedBlock[]): SnapshotContent {
  const state: FileRow[] = STATE_DBS.flatMap((db) => [...rowsOf(ctx.store, db)].map(({ key, value }) => ({ db, key, value })));
  const merkle = new StateMerkle();
  for (const { db, key, value } of state) merkle.push(db, key, value);
  const checksum = merkle.checksum();
  const producer = { name: prod, auth: { service: verifySig, rawData: ctx.keyB.publicKey } };
  const signature = signState(checksum, producer, (digest) => signDigest(ctx.keyB, digest));
  return { state, extra: headers.flatMap(headerRows), checksum, signatures: [signature] };
}

test('applySnapshot loads the validated snapshot into a new store, and refuses a forged one leaving the store empty', async (ctx) => {
  const load = (content: SnapshotContent) => {
    const store = LmdbStore.open(tempDir(ctx));
    try {
      return { loaded: applySnapshot(store, claimVerifierOf(new Executor(store, new Engine())), new KeptStates(tempDir(ctx)), content), store };
    } catch (err) {
      return { err, store };
    }
  };
  const good = load(contentWith(ctx, ctx.headers));
  assert.is(good.err, undefined, (good.err as Error | undefined)?.message);
  assert.is(good.loaded!.blockNum, ctx.chain.head!.header.blockNum);
  assert.equal(readConsensusChanges(good.store), readConsensusChanges(ctx.store), 'the loaded store records the validated changes');
  const forged = changed(ctx.headers, ctx.keyChange.end, (h) => ({ ...h, signature: Uint8Array.from(h.signature, (b, i) => (i === 10 ? b ^ 1 : b)) }));
  const bad = load(contentWith(ctx, forged));
  assert.instance(bad.err, SnapshotError);
  assert.is((bad.err as SnapshotError).code, 'SNAPSHOT_HEADERS');
  assert.equal(chainRows(bad.store).size, 0, 'nothing was written');
  assert.equal(readConsensusChanges(bad.store), []);
  await good.store.close();
  await bad.store.close();
});

test('a store that follows the chain into the key change validates the rest from its own head', async (ctx) => {
  const follower = newNode('');
  ctx.dirs.push(follower.dir);
  await applyRange(ctx.chain, follower.chain, 2, ctx.keyChange.start);
  follower.chain.stop();
  assert.ok(readStatus(follower.store)!.consensus.next, 'the follower is inside joint consensus');
  const load = (content: SnapshotContent) => applySnapshot(follower.store, claimVerifierOf(new Executor(follower.store, new Engine())), new KeptStates(tempDir(ctx)), content);
  const forged = changed(ctx.headers, ctx.keyChange.end, (h) => ({ ...h, signature: Uint8Array.from(h.signature, (b, i) => (i === 10 ? b ^ 1 : b)) }));
  const before = chainRows(follower.store);
  try {
    load(contentWith(ctx, forged));
    assert.unreachable('expected SNAPSHOT_HEADERS');
  } catch (err) {
    assert.is((err as SnapshotError).code, 'SNAPSHOT_HEADERS', (err as Error).message);
  }
  assert.equal(chainRows(follower.store), before, 'the follower\'s store is unchanged');
  assert.is(load(contentWith(ctx, ctx.headers)).blockNum, ctx.chain.head!.header.blockNum);
  assert.equal(readConsensusChanges(follower.store).at(-1), ctx.keyChange, 'the change it validated is recorded');
  await follower.store.close();
});

/** A change from one set to another of `kind` (alice..dave to erin..heidi), the headers made here. */
interface ChangeCase {
  local: StatusRow;
  start: SignedBlock;
  /** The block that ends the change: commitNum 11 reaches its start, made by `producer` (alice by default). */
  end: (aux: Uint8Array | null, producer?: bigint) => SignedBlock;
  /** Commits on the change's start block by `names`, with their `keys`, sorted by producer. */
  commits: (keys: KeyPair[], names: bigint[]) => ProducerConfirm<Uint8Array>[];
  old: KeyPair[];
  next: KeyPair[];
  oldNames: bigint[];
  nextNames: bigint[];
  nextSet: Consensus;
}

function changeCase(kind: 'CftConsensus' | 'BftConsensus'): ChangeCase {
  const setOf = (names: bigint[], keys: KeyPair[]): Consensus => ({
    ...genesisConsensus().current,
    data: { [kind]: { producers: names.map((name, i) => ({ name, auth: { service: verifySig, rawData: keys[i]!.publicKey } })) } } as Consensus['data'],
  });
  const oldNames = ['alice', 'bob', 'carol', 'dave'].map(accountNumberFromName);
  const nextNames = ['erin', 'frank', 'grace', 'heidi'].map(accountNumberFromName);
  const old = oldNames.map(() => generateKeyPair());
  const next = nextNames.map(() => generateKeyPair());
  const oldSet = setOf(oldNames, old);
  const nextSet = setOf(nextNames, next);
  const header = (blockNum: number, commitNum: number, consensus: JointConsensus, newConsensus: Consensus | null, producer = oldNames[0]!): BlockHeader => ({
    previous: new Uint8Array(32), blockNum, time: BigInt(blockNum) * 1_000_000n, producer, term: 1, commitNum,
    consensusState: sha256(JointConsensus.pack(consensus)), trxMerkleRoot: new Uint8Array(32), eventMerkleRoot: new Uint8Array(32), newConsensus, authCode: null,
  });
  const before = { current: oldSet, next: null };
  const joint = { current: oldSet, next: { consensus: nextSet, blockNum: 11 } };
  const head = header(10, 9, before, null);
  const local: StatusRow = { chainId: new Uint8Array(32), current: head, head: { header: head, blockId: blockId(head) }, consensus: before };
  const keyOf = (producer: bigint) => old[oldNames.indexOf(producer)] ?? next[nextNames.indexOf(producer)];
  const signed = (h: BlockHeader, aux: Uint8Array | null): SignedBlock => {
    // A CFT block is signed by its producer's key (one that is no producer here signs with alice's).
    const key = kind === 'CftConsensus' ? keyOf(h.producer) ?? old[0]! : undefined;
    const signature = key ? signDigest(key, sha256(blockSignatureInfo(blockId(h)))) : new Uint8Array(0);
    return { block: { header: h, transactions: [] }, signature, auxConsensusData: aux };
  };
  const start = signed(header(11, 10, joint, nextSet), null);
  const startId = blockId(start.block.header);
  const commits = (keys: KeyPair[], names: bigint[]) => names.map((producer, i) => {
    const signer = { service: verifySig, rawData: keys[i]!.publicKey };
    return { producer, signature: signDigest(keys[i]!, sha256(signingPreimage('CommitMessage', { blockId: startId, producer, signer }))) };
  }).sort((a, b) => (a.producer < b.producer ? -1 : 1));
  return { local, start, end: (aux, producer) => signed(header(12, 11, joint, null, producer), aux), commits, old, next, oldNames, nextNames, nextSet };
}

test('CFT: the block that ends a change is signed by a producer of either set (a leader elected under joint consensus may be a new one)', (ctx) => {
  const c = changeCase('CftConsensus');
  for (const producer of [c.oldNames[1]!, c.nextNames[0]!]) {
    const validator = new LightValidator(c.local, ctx.chain.claims);
    assert.is(validator.push(c.start), undefined);
    assert.equal(validator.push(c.end(null, producer)), { start: 11, commit: 11, end: 12 });
    assert.equal(currentOf(validator.consensus), currentOf({ current: c.nextSet, next: null }));
  }
  changeRefused(ctx, c, c.end(null, accountNumberFromName('mallory')), /mallory is not an active producer \(header 12\)/);
  const erin = c.end(null, c.nextNames[0]!);
  changeRefused(ctx, c, { ...erin, signature: Uint8Array.from(erin.signature, (b, i) => (i === 10 ? b ^ 1 : b)) }, /signature of erin does not verify/);
});

function changeRefused(ctx: Context, c: ChangeCase, end: SignedBlock, message: RegExp): void {
  const validator = new LightValidator(c.local, ctx.chain.claims);
  validator.push(c.start);
  try {
    validator.push(end);
    assert.unreachable('expected SNAPSHOT_HEADERS');
  } catch (err) {
    assert.instance(err, SnapshotError, (err as Error).stack);
    assert.is((err as SnapshotError).code, 'SNAPSHOT_HEADERS');
    assert.match((err as Error).message, message);
  }
}

const bftRefused = (ctx: Context, c: ChangeCase, aux: Uint8Array | null, message: RegExp) => changeRefused(ctx, c, c.end(aux), message);

test('BFT: a change is proven by a quorum of commits of each set on a block of the change; anything less is refused', (ctx) => {
  const c = changeCase('BftConsensus');
  const proof = (commits: ProducerConfirm<Uint8Array>[], nextCommits?: ProducerConfirm<Uint8Array>[]) => encodeBlockConfirm({ blockNum: 11, commits, ...(nextCommits ? { nextCommits } : {}) });
  const oldCommits = c.commits(c.old, c.oldNames);
  const nextCommits = c.commits(c.next, c.nextNames);
  const validator = new LightValidator(c.local, ctx.chain.claims);
  assert.is(validator.push(c.start), undefined);
  assert.equal(validator.push(c.end(proof(oldCommits.slice(0, 3), nextCommits.slice(1)))), { start: 11, commit: 11, end: 12 });
  assert.equal(currentOf(validator.consensus), currentOf({ current: c.nextSet, next: null }));

  bftRefused(ctx, c, null, /requires auxConsensusData/);
  bftRefused(ctx, c, proof(oldCommits.slice(0, 2), nextCommits), /fewer than the 3 needed/);
  bftRefused(ctx, c, proof(oldCommits), /next producers are missing/);
  const forged = oldCommits.map((x, i) => (i === 1 ? { ...x, signature: Uint8Array.from(x.signature, (b, j) => (j === 12 ? b ^ 1 : b)) } : x));
  bftRefused(ctx, c, proof(forged, nextCommits), /does not verify/);
  bftRefused(ctx, c, proof(oldCommits, oldCommits), /not an active producer/);
  bftRefused(ctx, c, proof([...oldCommits].reverse(), nextCommits), /not ordered by producer/);
  bftRefused(ctx, c, encodeBlockConfirm({ blockNum: 10, commits: oldCommits, nextCommits }), /not a known header of the producer change/);
});

test.run();
