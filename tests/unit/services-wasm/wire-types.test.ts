// One source for the node <-> service types: the AssemblyScript classes that mirror host-api's
// schema (host-api/types/native.ts NATIVE_SCHEMA) must have the same members, in the same order,
// with the same types and the same framing (Object, Struct, Variant). The SDK's transform emits
// the schema of a service's classes; a program using every mirrored class is compared with
// host-api's schema, so drift fails here rather than in an integration test.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Schema } from '../../../host-api/index.js';
import { NATIVE_SCHEMA } from '../../../host-api/types/native.js';
import { schemaDifference } from '../../lib/schema-difference.js';
import { buildScript } from './program.js';

/** Each mirrored class and the file that declares it (relative to the repository root). */
const MIRRORED: Record<string, string> = {
  StatusRow: 'services-wasm/sdk/native/index', BlockHeader: 'services-wasm/sdk/native/index',
  BlockInfo: 'services-wasm/sdk/native/index', BlockHeaderCode: 'services-wasm/sdk/native/index',
  JointConsensus: 'services-wasm/sdk/native/index', PendingConsensus: 'services-wasm/sdk/native/index',
  Consensus: 'services-wasm/sdk/native/index', ConsensusData: 'services-wasm/sdk/native/index',
  CftConsensus: 'services-wasm/sdk/native/index', BftConsensus: 'services-wasm/sdk/native/index',
  Producer: 'services-wasm/sdk/native/index', BlockHeaderAuthAccount: 'services-wasm/sdk/native/index',
  WasmConfig: 'services-wasm/sdk/native/index', VMOptions: 'services-wasm/sdk/native/index',
  CodeRow: 'services-wasm/sdk/native/index', CodeByHashRow: 'services-wasm/sdk/native/index',
  Action: 'services-wasm/sdk/index', HttpRequest: 'services-wasm/sdk/index', HttpReply: 'services-wasm/sdk/index',
  HttpHeader: 'services-wasm/sdk/http/header',
  Claim: 'services-wasm/sdk/auth/index', ServiceMethod: 'services-wasm/sdk/auth/index',
  Transaction: 'services-wasm/transact/transaction', Tapos: 'services-wasm/transact/transaction',
  SignedTransaction: 'services-wasm/transact/transaction',
  ScheduledSnapshotRow: 'services-wasm/transact/snapshot',
  ConfigRow: 'services-wasm/transact/boot',
  ProcessTransactionArgs: 'services-wasm/transact/process-transaction-args',
  ServeArgs: 'services-wasm/http/serve-args',
};

const DIR = 'tests/unit/services-wasm/programs';

/** A service with one action per mirrored class, so the transform puts every one in its schema. */
function program(): string {
  const names = Object.keys(MIRRORED);
  const imports = names.map((name) => `import { ${name} } from "../../../../${MIRRORED[name]}";`);
  const actions = names.map((name) => `  @action use${name}(value: ${name}): void {}`);
  // The SDK comes first, as in every service: its records must be known before others use them.
  return ['import * as sdk from "../../../../services-wasm/sdk/index";', ...imports, '@service("wiretypes")', 'class WireTypes {', ...actions, '}'].join('\n');
}

interface Context { emitted: Schema }
const test = suite<Context>('wire types');

test.before(async (ctx) => {
  const entry = `${DIR}/wire-types.ts`;
  const { schema } = await (await buildScript()).compileService(entry, { [entry]: program() });
  ctx.emitted = (schema as { types: Schema }).types;
});

for (const name of Object.keys(MIRRORED)) {
  test(`${name}: the AssemblyScript class matches host-api's schema`, ({ emitted }) => {
    assert.ok(Object.hasOwn(NATIVE_SCHEMA, name), `host-api defines ${name}`);
    assert.ok(Object.hasOwn(emitted, name), `the transform emitted ${name}`);
    assert.is(schemaDifference(emitted, NATIVE_SCHEMA, name), null);
  });
}

// The comparison catches drift of each kind: a changed member type, member order, framing, and a
// change deep inside a row.
const drifted: { what: string; type: string; change: (schema: Record<string, unknown>) => void; where: string }[] = [
  { what: 'a member type', type: 'ConfigRow', change: (s) => { s.ConfigRow = { Object: { maxKeySize: 'u32', maxValueSize: 'u64' } }; }, where: 'ConfigRow.maxValueSize' },
  { what: 'member order', type: 'Claim', change: (s) => { s.Claim = { Object: { rawData: 'bytes', service: 'AccountNumber' } }; }, where: 'Claim: members' },
  { what: 'extensibility', type: 'VMOptions', change: (s) => { s.VMOptions = { Struct: NATIVE_SCHEMA.VMOptions.Object }; }, where: 'VMOptions: Object vs Struct' },
  {
    what: 'a nested member', type: 'StatusRow',
    change: (s) => { s.BlockHeaderCode = { Object: { vmType: 'u8', vmVersion: 'u16', code: 'bytes' } }; },
    where: 'StatusRow.current.authCode<><>.vmVersion',
  },
];
for (const { what, type, change, where } of drifted) {
  test(`drift in ${what} is reported where it is`, ({ emitted }) => {
    const host: Record<string, unknown> = { ...NATIVE_SCHEMA };
    change(host);
    const found = schemaDifference(emitted, host as Schema, type);
    assert.ok(found?.startsWith(where), `${found} names ${where}`);
  });
}

test.run();
