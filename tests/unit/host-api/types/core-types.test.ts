// docs/formats.md §6-7 and docs/chain.md §1, §6: the core wire types and the transaction id.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Action, BlockHeader, HttpReply, HttpRequest, SignedTransaction, Tapos, Transaction, TransactionTrace, transactionId,
} from '../../../../host-api/index.js';
import { bytesToHex, hex } from '../../../lib/hex.js';

const EXAMPLE_TRANSACTION = '1700 00F1536500000000 44332211 0000 05 08000000 00000000 04000000 04000000 1C00 00B82A1B83AEDF04 '
  + '00342D8AFA07A40D 7AC6160000000000 04000000 02000000 0102';
const EXAMPLE_JSON = {
  tapos: { expiration: '2023-11-14T22:13:20Z', refBlockSuffix: 0x11223344, flags: 0, refBlockIndex: 5 },
  actions: [{ sender: 'alice', service: 'tokens', method: 'credit', rawData: '0102' }],
  claims: [],
};

test('§7 transaction: alice -> tokens::credit packs to the 69 given bytes', () => {
  const packed = Transaction.pack(Transaction.fromJson(EXAMPLE_JSON));
  assert.is(packed.length, 69);
  assert.is(bytesToHex(packed), EXAMPLE_TRANSACTION.replace(/ /g, ''));
  assert.equal(Transaction.toJson(Transaction.unpack(packed)), EXAMPLE_JSON);
  assert.is(bytesToHex(Transaction.pack(EXAMPLE_JSON)), bytesToHex(packed), 'pack accepts the JSON form directly');
});

test('§7 transaction id is SHA-256 of the packed transaction', () => {
  assert.is(bytesToHex(transactionId(hex(EXAMPLE_TRANSACTION))), '63D36F075B22666E06DC6792227DEE0EB3B4039CD69242487132CF45902AB2AB');
});

test('§7 signed transaction without proofs; transaction given as bytes, hex or object', () => {
  const expected = '0800 08000000 00000000 45000000' + EXAMPLE_TRANSACTION;
  const fromBytes = SignedTransaction.pack({ transaction: hex(EXAMPLE_TRANSACTION), proofs: [], subjectiveData: null });
  assert.is(bytesToHex(fromBytes), expected.replace(/ /g, ''));
  const fromHex = SignedTransaction.fromJson({ transaction: EXAMPLE_TRANSACTION.replace(/ /g, ''), proofs: [] });
  const fromObject = SignedTransaction.fromJson({ transaction: EXAMPLE_JSON, proofs: [] });
  assert.is(bytesToHex(SignedTransaction.pack(fromHex)), bytesToHex(fromBytes));
  assert.is(bytesToHex(SignedTransaction.pack(fromObject)), bytesToHex(fromBytes));
  const unpacked = SignedTransaction.unpack(fromBytes);
  assert.is(bytesToHex(unpacked.transaction), EXAMPLE_TRANSACTION.replace(/ /g, ''));
  assert.equal(unpacked.proofs, []);
  assert.is(unpacked.subjectiveData, null);
});

test('a signed transaction whose inner bytes are not a valid transaction fails to unpack', () => {
  const bad = SignedTransaction.pack({ transaction: hex(EXAMPLE_TRANSACTION), proofs: [] });
  bad[bad.length - 3] = 0x09; // rawData length now runs past the end
  assert.ok(SignedTransaction.check(bad));
  assert.throws(() => SignedTransaction.pack({ transaction: '0102', proofs: [] }), /FRACPACK|Transaction/);
});

test('Tapos is a 15-byte fixed struct in wire order', () => {
  const bytes = Tapos.pack({ expiration: 1700000000n, refBlockSuffix: 0x11223344, flags: 1, refBlockIndex: 0x85 });
  assert.is(bytesToHex(bytes), '00F1536500000000' + '44332211' + '0100' + '85');
});

test('Action with a hash-form method name round-trips', () => {
  const packed = Action.pack({ sender: 'alice', service: 'tokens', method: 'natasharomanoff', rawData: '' });
  assert.equal(Action.toJson(Action.unpack(packed)), { sender: 'alice', service: 'tokens', method: '#psaoryoiluhlrpyn', rawData: '' });
});

test('BlockHeader round-trips with consensus and auth code', () => {
  const header = {
    previous: '00'.repeat(32),
    blockNum: 2,
    time: '2025-01-02T03:04:05.000000Z',
    producer: 'prod',
    term: 1,
    commitNum: 2,
    consensusState: '11'.repeat(32),
    trxMerkleRoot: '22'.repeat(32),
    eventMerkleRoot: '33'.repeat(32),
    newConsensus: {
      data: { CftConsensus: { producers: [{ name: 'prod', auth: { service: 'verify-sig', rawData: 'AABB' } }] } },
      services: [{ codeNum: 'verify-sig', codeHash: '44'.repeat(32), vmType: 0, vmVersion: 0 }],
      wasmConfig: { numExecutionMemories: 32, vmOptions: { maxMutableGlobalBytes: 1024, maxPages: 512, maxTableElements: 8192, maxStackBytes: 1048576 } },
    },
    authCode: [{ vmType: 0, vmVersion: 0, code: '0061736D' }],
  };
  const packed = BlockHeader.pack(header);
  assert.equal(BlockHeader.toJson(BlockHeader.unpack(packed)), header);
  const plain = BlockHeader.pack({ ...header, newConsensus: null, authCode: null });
  assert.is(plain.length, 2 + 32 + 4 + 8 + 8 + 4 + 4 + 32 * 3, 'trailing absent options are dropped');
});

test('HttpRequest and HttpReply in wire order; HttpHeader is a non-extensible struct', () => {
  const request = { host: 'tokens.tsibase.localhost', method: 'GET', target: '/x?y=1', contentType: '', headers: [{ name: 'Accept', value: '*/*' }], body: '' };
  const packed = HttpRequest.pack(request);
  assert.equal(HttpRequest.toJson(HttpRequest.unpack(packed)), request);
  const reply = HttpReply.pack({ status: 200, contentType: 'text/plain', body: '6869', headers: [] });
  assert.is(bytesToHex(reply.subarray(0, 4)), '0E00C800', 'fixed area of 14 bytes (u16 + 3 slots), status 200 first');
  assert.equal(HttpReply.toJson(HttpReply.unpack(reply)), { status: 200, contentType: 'text/plain', body: '6869', headers: [] });
});

test('TransactionTrace JSON has the shape of docs/chain.md §6', () => {
  const trace = {
    actionTraces: [{
      action: { sender: '', service: 'transact', method: '', rawData: '' },
      rawRetval: '',
      innerTraces: [
        { inner: { ConsoleTrace: { console: 'hi' } } },
        { inner: { EventTrace: { name: 'transferred', data: '00' } } },
        { inner: { ActionTrace: { action: { sender: 'alice', service: 'tokens', method: 'credit', rawData: '' }, rawRetval: '01', innerTraces: [], totalTime: '1500', error: null } } },
      ],
      totalTime: '2000',
      error: null,
    }],
    error: 'service \'tokens\' aborted with message: nope',
  };
  const packed = TransactionTrace.pack(trace);
  assert.equal(TransactionTrace.toJson(TransactionTrace.unpack(packed)), trace);
});

test.run();
