// host-abi §7: a query may get a reused instance whose memory grew in an earlier query, its
// memory's size kept; transactions and callbacks never do: they see the module's start-up size.
// A real service on the in-process chain, run as the node runs queries and transactions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { ServiceCodec, type ServiceSchema } from '../../../../host-api/client/service-codec.js';
import { compiledEntry } from '../../services-wasm/program.js';

const ENTRY = 'tests/unit/runtime/wasm/programs/memory-size.ts';
const SOURCE = `
import * as sdk from "../../../../../services-wasm/sdk/index";
@service("memsize")
class MemorySize {
  /** Grows the memory by 4 pages; its size in pages after. */
  @action grow(): i32 { memory.grow(4); return memory.size(); }
  @action size(): i32 { return memory.size(); }
}
`;

let chain: TestChain;
let codec: ServiceCodec;

test.before(async () => {
  const service = await compiledEntry(ENTRY, { [ENTRY]: SOURCE });
  codec = new ServiceCodec(service.schema as ServiceSchema);
  chain = TestChain.open();
  chain.deploy('memsize', service.binary);
});

test.after(async () => {
  await chain.close();
});

function pages(method: 'grow' | 'size', mode: 'rpc' | 'transaction' | 'callback'): number {
  const result = chain.run({ sender: 'memsize', service: 'memsize', method, rawData: codec.args(method, {}) }, { mode });
  assert.is(result.error, undefined);
  return codec.valueOf(method, result) as number;
}

test('after a query grew its memory, a transaction and a callback start at the start-up size, a query may reuse the grown instance', () => {
  const startUp = pages('size', 'transaction');
  assert.is(pages('grow', 'rpc'), startUp + 4);
  assert.is(pages('size', 'transaction'), startUp, 'a transaction');
  assert.is(pages('size', 'callback'), startUp, 'a callback');
  assert.is(pages('size', 'rpc'), startUp + 4, 'a query reuses the grown instance, reset');
});

test.run();
