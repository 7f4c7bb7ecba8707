// bench/testing: TestChain.boot() time (the default bundle booted in this process: the first
// boot, then the median of several more) and signed token transfers per second through chain.push, a block per push
// (autoBlock on) and blocks of many pushes (autoBlock off).
// Run: make bench (needs build/default.bundle and build/services/tokens.wasm from make services).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPair } from '../../host-api/index.js';
import type { BootedChain } from '../../runtime/testing/booted-chain.js';
import { ServiceCodec } from '../../host-api/client/service-codec.js';
import { TestChain } from '../../runtime/testing/test-chain.js';
import { formatRate } from '../lib/measure.js';

const BOOTS = 7;
const SECONDS = 3;
/** Pushes per block with autoBlock off. */
const BLOCK_SIZE = 100;
const TOKENS_WASM = join(process.cwd(), 'build', 'services', 'tokens.wasm');
const tokens = new ServiceCodec(JSON.parse(readFileSync(join(process.cwd(), 'build', 'services', 'tokens.schema.json'), 'utf8')));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const bootMs: number[] = [];
for (let i = 0; i < BOOTS; i++) {
  const started = performance.now();
  const chain = await TestChain.boot();
  bootMs.push(performance.now() - started);
  await chain.close();
}

/** Signed transfers from alice to bob for SECONDS, each with its own memo (no duplicates); their rate. */
async function transferRate(chain: BootedChain, key: ReturnType<typeof generateKeyPair>, autoBlock: boolean): Promise<number> {
  chain.autoBlock(autoBlock);
  let n = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  while (performance.now() < end) {
    const rawData = tokens.args('transfer', { to: 'bob', amount: 1, memo: `${autoBlock ? 'auto' : 'manual'} ${n}` });
    const pushed = await chain.push([{ sender: 'alice', service: 'tokens', method: 'transfer', rawData }], { sign: key });
    if (pushed.error !== null) throw new Error(`transfer ${n} failed: ${pushed.error}`);
    n++;
    if (!autoBlock && n % BLOCK_SIZE === 0) chain.produceBlock();
  }
  if (!autoBlock) chain.produceBlock();
  return n / ((performance.now() - started) / 1000);
}

const key = generateKeyPair();
const chain = await TestChain.boot({ keys: { account: key }, services: [{ account: 'tokens', code: TOKENS_WASM, init: true }] });
try {
  await chain.newAccount('alice');
  await chain.newAccount('bob');
  const minted = await chain.push([{ sender: 'tokens', service: 'tokens', method: 'mint', rawData: tokens.args('mint', { to: 'alice', amount: 1_000_000_000 }) }], { sign: key });
  if (minted.error !== null) throw new Error(`mint failed: ${minted.error}`);
  const auto = await transferRate(chain, key, true);
  const manual = await transferRate(chain, key, false);
  console.log(`bench/testing (node ${process.version}); transfers signed with P-256, pushed one at a time for ${SECONDS} s`);
  // The first boot of a process admits and compiles the bundle's modules; the others reuse them.
  const [first, ...later] = bootMs;
  console.log(`${"TestChain.boot() of the default bundle, the process's first".padEnd(56)} ${Math.round(first!).toString().padStart(12)} ms`);
  console.log(`${`TestChain.boot() after it (median of ${later.length})`.padEnd(56)} ${Math.round(median(later)).toString().padStart(12)} ms  (min ${Math.round(Math.min(...later))}, max ${Math.round(Math.max(...later))})`);
  console.log(`${'signed transfers via chain.push, a block per push'.padEnd(56)} ${formatRate(auto).padStart(12)} /s`);
  console.log(`${`signed transfers via chain.push, ${BLOCK_SIZE} per block`.padEnd(56)} ${formatRate(manual).padStart(12)} /s`);
} finally {
  await chain.close();
}
