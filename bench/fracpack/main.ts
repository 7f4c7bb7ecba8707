// bench/fracpack: packs/s and validating unpacks/s of a 2-action Transaction (also with the
// interpreted member loops, what a page without eval runs) and of a 100-element list of structs.
// Run: make bench (or node dist/bench/fracpack/main.js).
import { CORE_SCHEMA, Transaction, compileSchema } from '../../host-api/index.js';
import { measure, report } from '../lib/measure.js';

const TARGET = 250_000;

const transaction = Transaction.fromJson({
  tapos: { expiration: '2026-11-21T12:00:00Z', refBlockSuffix: 0x11223344, flags: 0, refBlockIndex: 5 },
  actions: [
    { sender: 'alice', service: 'tokens', method: 'credit', rawData: '0102030405060708' },
    { sender: 'alice', service: 'tokens', method: 'transfer', rawData: '000000000000000000000000000000000000000000000000' },
  ],
  claims: [{ service: 'verify-sig', rawData: '3059301306072A8648CE3D020106082A8648CE3D03010703420004' + '11'.repeat(64) }],
});
const packedTransaction = Transaction.pack(transaction);
const InterpretedTransaction = compileSchema(CORE_SCHEMA, { memberLoops: 'interpreted' }).type('Transaction');

const rows = compileSchema({
  Row: { Struct: { id: 'u64', owner: 'AccountNumber', balance: 'i64', flags: 'u32', precision: 'u8' } },
  Rows: { List: 'Row' },
  NamedRow: { Object: { id: 'u64', name: 'string', tags: { List: 'string' }, note: { Option: 'string' } } },
  NamedRows: { List: 'NamedRow' },
});
const Rows = rows.type('Rows');
const NamedRows = rows.type('NamedRows');
const fixedRows = Array.from({ length: 100 }, (_, i) => ({ id: BigInt(i), owner: 'alice', balance: BigInt(i * 1000), flags: i, precision: 4 }));
const namedRows = Array.from({ length: 100 }, (_, i) => ({ id: BigInt(i), name: `row-${i}`, tags: ['a', 'bc'], note: i % 2 ? null : 'even' }));
const nativeFixedRows = Rows.unpack(Rows.pack(fixedRows));
const nativeNamedRows = NamedRows.unpack(NamedRows.pack(namedRows));
const packedFixedRows = Rows.pack(nativeFixedRows);
const packedNamedRows = NamedRows.pack(nativeNamedRows);

console.log(`bench/fracpack (node ${process.version}); Transaction = ${packedTransaction.length} bytes, 2 actions + 1 claim`);
report('Transaction pack', measure(() => Transaction.pack(transaction), 1.5), TARGET);
report('Transaction validating unpack', measure(() => Transaction.unpack(packedTransaction), 1.5), TARGET);
report('Transaction pack, interpreted', measure(() => InterpretedTransaction.pack(transaction), 1.5), TARGET);
report('Transaction validating unpack, interpreted', measure(() => InterpretedTransaction.unpack(packedTransaction), 1.5), TARGET);
report('100 fixed structs (Struct) pack', measure(() => Rows.pack(nativeFixedRows), 1, 10));
report('100 fixed structs (Struct) validating unpack', measure(() => Rows.unpack(packedFixedRows), 1, 10));
report('100 extensible structs (Object) pack', measure(() => NamedRows.pack(nativeNamedRows), 1, 10));
report('100 extensible structs (Object) validating unpack', measure(() => NamedRows.unpack(packedNamedRows), 1, 10));
