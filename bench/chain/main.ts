// bench/chain: signed token transfers per second through HTTP push_transaction
// (wait_for=applied, concurrent undici clients) against a real node process, next to
// node:crypto's P-256 verifications per second in the same run, and the dev-chain boot time.
// Run: make bench (needs build/default.bundle and build/services/tokens.wasm from make services).
import { createPrivateKey, createVerify, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import {
  SignedTransaction, Transaction, TransactionTrace, compileSchema, generateKeyPair, privateKeyToPkcs8, systemAction,
} from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { serviceUrl } from '../../runtime/cli/client.js';
import { deployActions } from '../../runtime/cli/deploy-actions.js';
import { clockTicksPerSecond } from '../../runtime/metrics/clock-ticks.js';
import { parseThreadStat } from '../../runtime/metrics/thread-stats.js';
import { nodeProcessId, startNode } from '../../tests/lib/node-process.js';
import { SECONDS, WARM_UP_SECONDS, closedLoopRate } from '../lib/closed-loop.js';
import { formatRate } from '../lib/measure.js';

const TARGET = 3000;
const ACCOUNTS = 32;
const CONNECTIONS = 16;
const PIPELINING = 4;
const TRANSFER = compileSchema({}).typeOf({ Object: { to: 'AccountNumber', amount: 'u64', memo: 'string' } });
const MINT = compileSchema({}).typeOf({ Object: { to: 'AccountNumber', amount: 'u64' } });

/** User + system CPU seconds of a process, or of one of its threads (Linux /proc). */
function cpuSeconds(pid: number, tid?: number): number {
  const stat = parseThreadStat(readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8'));
  return Number(stat.userTicks + stat.systemTicks) / clockTicksPerSecond();
}

function verifiesPerSecond(): number {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const data = Buffer.alloc(200, 7);
  const signature = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 1000) {
    createVerify('sha256').update(data).verify({ key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-chain-'));
const node = await startNode(join(dir, 'node'), ['-p', 'prod', '--boot', join(process.cwd(), 'build', 'default.bundle')]);
try {
  const pushUrl = serviceUrl(node.api, 'transact', '/push_transaction?wait_for=applied');
  const octet = { 'content-type': 'application/octet-stream' };
  // Accounts with P-256 keys (created by root, whose dev auth service approves anything), the
  // token service deployed from its .wasm, and a balance for every account.
  const client = new ChainClient(node.api);
  const keys = Array.from({ length: ACCOUNTS }, () => generateKeyPair());
  const users = keys.map((_, i) => `user${i}`);
  await client.push([
    ...keys.map((k, i) => systemAction('root', 'auth-sig.newAccount', { name: users[i], key: k.publicKey })),
    ...deployActions('tokens', new Uint8Array(readFileSync(join(process.cwd(), 'build', 'services', 'tokens.wasm'))), { create: { insecure: true }, init: true }),
  ], { waitFor: 'applied' });
  await client.push(users.map((to) => ({
    sender: 'tokens', service: 'tokens', method: 'mint', rawData: MINT.pack({ to, amount: 1_000_000_000n }),
  })), { waitFor: 'applied' });
  const tapos = await client.tapos(300);

  // Signed transactions prepared up front (node:crypto signs; the bench measures the node):
  // enough for twice the target rate through the warm-up and the window.
  const count = TARGET * (WARM_UP_SECONDS + SECONDS) * 2;
  const privateKeys = keys.map((k) => createPrivateKey({ key: Buffer.from(privateKeyToPkcs8(k)), format: 'der', type: 'pkcs8' }));
  const bodies = Array.from({ length: count }, (_, i) => {
    const who = i % ACCOUNTS;
    const transaction = Transaction.pack({
      tapos,
      actions: [{ sender: users[who], service: 'tokens', method: 'transfer', rawData: TRANSFER.pack({ to: users[(who + 1) % ACCOUNTS], amount: BigInt(1 + i), memo: '' }) }],
      claims: [{ service: 'verify-sig', rawData: keys[who]!.publicKey }],
    });
    const proof = sign('sha256', transaction, { key: privateKeys[who]!, dsaEncoding: 'ieee-p1363' });
    return SignedTransaction.pack({ transaction, proofs: [proof], subjectiveData: null });
  });

  const url = new URL(pushUrl);
  // The client shares this machine's two cores with the node: keep it cheap (fracpack traces,
  // a few pipelined keep-alive connections).
  const pool = new Pool(`http://127.0.0.1:${url.port}`, { connections: CONNECTIONS, pipelining: PIPELINING });
  let next = 0;
  const push = async () => {
    const body = bodies[next++];
    if (!body) throw new Error(`all ${count} prepared transactions were pushed before the window closed`);
    // Pipelined for real: undici holds a POST until the connection is idle unless it is marked
    // idempotent (a transaction is: the chain refuses a duplicate) and non-blocking.
    const r = await pool.request({
      path: `${url.pathname}${url.search}`, method: 'POST', idempotent: true, blocking: false, body,
      headers: { ...octet, accept: 'application/octet-stream', host: url.host },
    });
    const trace = TransactionTrace.unpack(new Uint8Array(await r.body.arrayBuffer()));
    // A failed transfer makes the figure meaningless: stop the run.
    if (r.statusCode !== 200 || trace.error !== null) throw new Error(`transfer failed (${r.statusCode}): ${trace.error}`);
  };
  const pid = nodeProcessId(node);
  // CPU over the measured window. The main thread runs the chain: if it is not near 1.0, the
  // node is waiting, not computing.
  let before = { node: 0, main: 0, client: process.cpuUsage(), at: 0 };
  let nodeCpu = 0, mainCpu = 0, clientCpu = 0;
  const tps = await closedLoopRate(CONNECTIONS * PIPELINING, push, {
    onStart: () => {
      before = { node: cpuSeconds(pid), main: cpuSeconds(pid, pid), client: process.cpuUsage(), at: performance.now() };
    },
    onEnd: () => {
      const elapsed = (performance.now() - before.at) / 1000;
      nodeCpu = (cpuSeconds(pid) - before.node) / elapsed;
      mainCpu = (cpuSeconds(pid, pid) - before.main) / elapsed;
      const client = process.cpuUsage(before.client);
      clientCpu = (client.user + client.system) / 1e6 / elapsed;
    },
  });
  await pool.close();

  console.log(`bench/chain (node ${process.version}); ${ACCOUNTS} accounts, ${CONNECTIONS} connections x ${PIPELINING} pipelined, ${SECONDS} s after ${WARM_UP_SECONDS} s of warm-up`);
  console.log(`${'signed token transfers via push_transaction'.padEnd(48)} ${formatRate(tps).padStart(12)} /s  (target ${formatRate(TARGET)}: ${tps >= TARGET ? 'met' : 'NOT met'}; ${next} pushed, none failed)`);
  console.log(`${'CPU use during the run (1.0 = one core)'.padEnd(48)} ${`node ${nodeCpu.toFixed(2)} (main thread ${mainCpu.toFixed(2)}), client ${clientCpu.toFixed(2)}`.padStart(12)}`);
  console.log(`${'node:crypto P-256 verifications'.padEnd(48)} ${formatRate(verifiesPerSecond()).padStart(12)} /s`);
} finally {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
}

// Dev-chain boot time: a fresh node booting the default bundle (reported by the node itself).
const bootDir = mkdtempSync(join(tmpdir(), 'tsibase-bench-boot-'));
const started = performance.now();
const booted = await startNode(join(bootDir, 'node'), ['-p', 'prod', '--boot', join(process.cwd(), 'build', 'default.bundle')]);
console.log(`${'dev chain: process start to booted and listening'.padEnd(48)} ${Math.round(performance.now() - started).toString().padStart(12)} ms`);
await booted.stop();
rmSync(bootDir, { recursive: true, force: true });
