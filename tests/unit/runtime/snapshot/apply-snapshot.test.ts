// Snapshot files (docs/p2p.md §7.3) made from a real booted chain with the file's own encoders,
// read back and loaded into other stores: a good one (plain or gzip) becomes the same state, on
// which the producer's next block applies; damaged, unsigned, headless (no genesis header, or a
// garbled or foreign one), other-chain and not-newer ones, and one whose verify services are not
// those of its consensus, are refused with a stable code and leave the target store as it was.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CodeFlags, DbId } from '../../../../host-api/abi/databases.js';
import { codeKey } from '../../../../host-api/abi/keys.js';
import { equalBytes } from '../../../../host-api/encoding/bytes.js';
import { accountNumberFromName } from '../../../../host-api/names/index.js';
import { bytesToHex } from '../../../../host-api/encoding/hex.js';
import { readConsensusChanges } from '../../../../runtime/chain/consensus-changes.js';
import { headerRows, lightHeaderBlocks, lightHeaders } from '../../../../runtime/snapshot/light-headers.js';
import { readStatus } from '../../../../runtime/chain/chain-state.js';
import type { Store } from '../../../../runtime/db/store.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { Executor } from '../../../../runtime/wasm/executor.js';
import { claimVerifierOf } from '../../../../runtime/chain/claim-verdicts.js';
import { applySnapshot, applySnapshotChecksummedAside } from '../../../../runtime/snapshot/apply-snapshot.js';
import { KeptStates } from '../../../../runtime/snapshot/kept-states.js';
import { SnapshotError } from '../../../../runtime/snapshot/snapshot-error.js';
import { encodeRow, fileHeader, FileDb, footerRows, parseSnapshot, type FileRow, type SnapshotContent } from '../../../../runtime/snapshot/snapshot-file.js';
import { readLogStart } from '../../../../runtime/chain/block-log.js';
import { readSnapshotRow } from '../../../../runtime/snapshot/snapshot-rows.js';
import { CodeRow, type StateChecksum, type StateSignature } from '../../../../host-api/types/native.js';
import { rowsOf } from '../../../../runtime/db/prefix-rows.js';
import { STATE_DBS } from '../../../../runtime/snapshot/state-rows.js';
import { KvMerkle } from '../../../../runtime/crypto/kv-merkle.js';
import type { KvReader } from '../../../../runtime/db/store.js';
import { signState } from '../../../../runtime/snapshot/state-signatures.js';
import { applyRange, bootedProducer, chainRows, closeNode, inBlock, newNode, openNode, type Node } from '../chain/chain-nodes.js';

const test = suite<{ producer: Node; good: SnapshotContent; dirs: string[] }>('apply snapshot');

const EMPTY_CLAIM = { service: 0n, rawData: new Uint8Array(0) };
const FILE_DB = new Map<number, number>([[DbId.service, FileDb.service], [DbId.native, FileDb.native], [DbId.blockLog, FileDb.blockLog], [DbId.blockProof, FileDb.blockProof], [DbId.nativeSubjective, FileDb.nativeSubjective]]);

/** The KvMerkle roots of what a store holds now. */
function stateChecksum(store: KvReader): StateChecksum {
  const [serviceRoot, nativeRoot] = STATE_DBS.map((db) => {
    const merkle = new KvMerkle();
    for (const { key, value } of rowsOf(store, db)) merkle.push(key, value);
    return merkle.root();
  });
  return { serviceRoot: serviceRoot!, nativeRoot: nativeRoot! };
}

/** A snapshot's content straight from a store: its state, its consensus-change headers, prod's signature. */
function contentOf(store: Store): SnapshotContent {
  const state: FileRow[] = STATE_DBS.flatMap((db) => [...rowsOf(store, db)].map(({ key, value }) => ({ db, key, value })));
  const extra = lightHeaderBlocks(store, lightHeaders(readConsensusChanges(store), readStatus(store)!)).flatMap(headerRows).sort((a, b) => a.db - b.db);
  const checksum = stateChecksum(store);
  const signature = signState(checksum, { name: accountNumberFromName('prod'), auth: EMPTY_CLAIM }, undefined);
  return { state, extra, checksum, signatures: [signature] };
}

/** `content` with other state rows (in key order), their checksum, and prod's signature of it. */
function withState(content: SnapshotContent, state: FileRow[]): SnapshotContent {
  const [serviceRoot, nativeRoot] = STATE_DBS.map((db) => {
    const merkle = new KvMerkle();
    for (const row of state) if (row.db === db) merkle.push(row.key, row.value);
    return merkle.root();
  });
  const checksum = { serviceRoot: serviceRoot!, nativeRoot: nativeRoot! };
  return { ...content, state, checksum, signatures: [signState(checksum, { name: accountNumberFromName('prod'), auth: EMPTY_CLAIM }, undefined)] };
}

const hexRows = (rows: FileRow[]) => rows.map((r) => `${r.db}:${bytesToHex(r.key)}=${bytesToHex(r.value)}`);

/** The file bytes of a content, written with the file's encoders. */
function fileOf(content: SnapshotContent): Uint8Array {
  const rows = [...content.state, ...content.extra].map((r) => encodeRow(FILE_DB.get(r.db)!, r.key, r.value));
  return Buffer.concat([fileHeader(), ...rows, ...footerRows(content.checksum, content.signatures)]);
}

function load(ctx: { dirs: string[] }, node: Node, content: SnapshotContent) {
  const keptDir = mkdtempSync(join(tmpdir(), 'tsibase-kept-'));
  ctx.dirs.push(keptDir);
  return applySnapshot(node.store, claimVerifierOf(new Executor(node.store, new Engine())), new KeptStates(keptDir), content);
}

function refused(ctx: { dirs: string[] }, node: Node, content: SnapshotContent | (() => SnapshotContent), code: string): void {
  const before = chainRows(node.store);
  try {
    load(ctx, node, typeof content === 'function' ? content() : content);
    assert.unreachable(`expected ${code}`);
  } catch (err) {
    assert.instance(err, SnapshotError, (err as Error).stack);
    assert.is((err as SnapshotError).code, code, (err as Error).message);
  }
  assert.equal(chainRows(node.store), before, 'the store is unchanged');
}

test.before(async (ctx) => {
  ctx.dirs = [];
  ctx.producer = await bootedProducer();
  ctx.good = contentOf(ctx.producer.store);
});

test.after(async (ctx) => {
  await closeNode(ctx.producer);
  for (const dir of ctx.dirs) rmSync(dir, { recursive: true, force: true });
});

test('a file read back, plain or gzip, is the content written', ({ good }) => {
  for (const bytes of [fileOf(good), gzipSync(fileOf(good))]) {
    const parsed = parseSnapshot(bytes);
    assert.equal(hexRows(parsed.state), hexRows(good.state));
    assert.equal(hexRows(parsed.extra), hexRows(good.extra));
    assert.equal(parsed.checksum, good.checksum);
    assert.equal(parsed.signatures, good.signatures);
  }
});

test('a loaded snapshot is the producer\'s state; the producer\'s next block applies on it', async (ctx) => {
  const node = newNode('');
  ctx.dirs.push(node.dir);
  const loaded = load(ctx, node, parseSnapshot(fileOf(ctx.good)));
  const head = readStatus(ctx.producer.store)!.head!;
  assert.is(loaded.blockNum, head.header.blockNum);
  assert.equal(stateChecksum(node.store), ctx.good.checksum);
  assert.is(readLogStart(node.store), head.header.blockNum);
  assert.equal(readSnapshotRow(node.store, head.blockId)?.state?.signatures, ctx.good.signatures);
  // A chain opened on the loaded store follows the producer from the snapshot block.
  await closeNode(node, false);
  const follower = openNode(node.dir, '');
  await inBlock(ctx.producer.chain, []);
  await applyRange(ctx.producer.chain, follower.chain, head.header.blockNum + 1, ctx.producer.chain.head!.header.blockNum);
  await closeNode(follower, false);
});

test('with the checksum computed aside (load-snapshot), the same store, the same kept state and the same refusals', async (ctx) => {
  const { good } = ctx;
  const stores = [];
  for (const apply of [applySnapshot, applySnapshotChecksummedAside]) {
    const node = newNode('');
    const keptDir = mkdtempSync(join(tmpdir(), 'tsibase-kept-'));
    ctx.dirs.push(node.dir, keptDir);
    const loaded = await apply(node.store, claimVerifierOf(new Executor(node.store, new Engine())), new KeptStates(keptDir), parseSnapshot(fileOf(good)));
    const [keptFile, ...more] = readdirSync(keptDir).filter((f) => !f.endsWith('.tmp'));
    assert.is(more.length, 0);
    stores.push({ blockNum: loaded.blockNum, rows: chainRows(node.store), kept: bytesToHex(readFileSync(join(keptDir, keptFile!))) });
    await closeNode(node, false);
  }
  assert.equal(stores[1], stores[0]);

  const node = newNode('');
  ctx.dirs.push(node.dir);
  const refusedAside = async (content: SnapshotContent, code: string) => {
    const before = chainRows(node.store);
    const keptDir = mkdtempSync(join(tmpdir(), 'tsibase-kept-'));
    ctx.dirs.push(keptDir);
    try {
      await applySnapshotChecksummedAside(node.store, claimVerifierOf(new Executor(node.store, new Engine())), new KeptStates(keptDir), content);
      assert.unreachable(`expected ${code}`);
    } catch (err) {
      assert.instance(err, SnapshotError, (err as Error).stack);
      assert.is((err as SnapshotError).code, code, (err as Error).message);
    }
    assert.equal(chainRows(node.store), before, 'the store is unchanged');
  };
  const flipped = good.state.map((r, i) => (i === 5 ? { ...r, value: Uint8Array.from(r.value, (b, j) => (j === 0 ? b ^ 1 : b)) } : r));
  await refusedAside({ ...good, state: flipped }, 'SNAPSHOT_CHECKSUM');
  await refusedAside({ ...good, state: [good.state[1]!, good.state[0]!, ...good.state.slice(2)] }, 'SNAPSHOT_BAD_ROW');
  // Bad rows and missing signatures both: the checksum is the reason given.
  await refusedAside({ ...good, state: flipped, signatures: [] }, 'SNAPSHOT_CHECKSUM');
  await refusedAside({ ...good, signatures: [] }, 'SNAPSHOT_SIGNATURES');
  assert.is(readStatus(node.store), undefined);
});

test('damaged files are refused with their codes', ({ good }) => {
  const file = Buffer.from(fileOf(good));
  const code = (bytes: Uint8Array) => {
    try {
      parseSnapshot(bytes);
    } catch (err) {
      assert.instance(err, SnapshotError);
      return (err as SnapshotError).code;
    }
    return 'parsed';
  };
  assert.is(code(Buffer.concat([Buffer.from([1, 2, 3, 4]), file.subarray(4)])), 'SNAPSHOT_NOT_A_SNAPSHOT');
  const version = Buffer.from(file);
  version.writeUInt32LE(1, 4);
  assert.is(code(version), 'SNAPSHOT_VERSION');
  assert.is(code(file.subarray(0, file.length - 3)), 'SNAPSHOT_TRUNCATED');
  assert.is(code(gzipSync(file).subarray(0, 40)), 'SNAPSHOT_TRUNCATED');
  const unknownDb = Buffer.from(file);
  unknownDb.writeUInt32LE(9, 8);
  assert.is(code(unknownDb), 'SNAPSHOT_BAD_ROW');
  const noFooter = fileOf({ ...good, signatures: [] }).subarray(0, file.length - (footerRows(good.checksum, good.signatures).reduce((n, r) => n + r.length, 0)));
  assert.is(code(noFooter), 'SNAPSHOT_CHECKSUM');
});

test('a damaged, reordered, unsigned or headless snapshot is refused; an empty store stays empty', (ctx) => {
  const node = newNode('');
  ctx.dirs.push(node.dir);
  const { good } = ctx;
  const flipped = good.state.map((r, i) => (i === 5 ? { ...r, value: Uint8Array.from(r.value, (b, j) => (j === 0 ? b ^ 1 : b)) } : r));
  refused(ctx, node, { ...good, state: flipped }, 'SNAPSHOT_CHECKSUM');
  const swapped = [good.state[1]!, good.state[0]!, ...good.state.slice(2)];
  refused(ctx, node, { ...good, state: swapped }, 'SNAPSHOT_BAD_ROW');
  refused(ctx, node, { ...good, signatures: [] }, 'SNAPSHOT_SIGNATURES');
  const stranger: StateSignature = { ...good.signatures[0]!, account: accountNumberFromName('alice') };
  refused(ctx, node, { ...good, signatures: [stranger] }, 'SNAPSHOT_SIGNATURES');
  refused(ctx, node, { ...good, extra: [] }, 'SNAPSHOT_HEADERS');
  refused(ctx, node, { ...good, extra: good.extra.filter((r) => !(r.db === DbId.blockLog && bytesToHex(r.key) === '00000002')) }, 'SNAPSHOT_HEADERS');
  const garbled = good.extra.map((r) => (r.db === DbId.blockLog && bytesToHex(r.key) === '00000002' ? { ...r, value: Uint8Array.of(1, 2, 3) } : r));
  refused(ctx, node, { ...good, extra: garbled }, 'SNAPSHOT_BAD_ROW');
  const otherHead = { ...good.extra.find((r) => r.db === DbId.blockLog && bytesToHex(r.key) !== '00000002')! };
  refused(ctx, node, { ...good, extra: good.extra.map((r) => (r.db === DbId.blockLog && bytesToHex(r.key) === '00000002' ? { ...r, value: otherHead.value } : r)) }, 'SNAPSHOT_HEADERS');
  assert.is(readStatus(node.store), undefined);
});

test("a snapshot whose code rows with isVerify are not its consensus's verify services is refused", (ctx) => {
  const node = newNode('');
  ctx.dirs.push(node.dir);
  const { good } = ctx;
  assert.equal(withState(good, good.state).checksum, good.checksum, 'the same rows give the same checksum');
  const flagged = (name: string, flags: (old: bigint) => bigint) => good.state.map((r) => {
    if (r.db !== DbId.native || !equalBytes(r.key, codeKey(accountNumberFromName(name)))) return r;
    const row = CodeRow.unpack(r.value);
    return { ...r, value: CodeRow.pack({ ...row, flags: flags(row.flags) }) };
  });
  refused(ctx, node, withState(good, flagged('accounts', (f) => f | CodeFlags.isVerify)), 'SNAPSHOT_HEAD');
  refused(ctx, node, withState(good, flagged('verify-sig', (f) => f & ~CodeFlags.isVerify)), 'SNAPSHOT_HEAD');
  assert.is(readStatus(node.store), undefined);
});

test('a store of another chain, or one at the snapshot already, is left as it is', async (ctx) => {
  const other = await bootedProducer();
  ctx.dirs.push(other.dir);
  refused(ctx, other, ctx.good, 'SNAPSHOT_OTHER_CHAIN');
  await closeNode(other, false);
  refused(ctx, ctx.producer, () => contentOf(ctx.producer.store), 'SNAPSHOT_NOT_NEWER');
});

test.run();
