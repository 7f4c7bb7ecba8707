// bench/queries: whether queries and transfers get in each other's way (docs/serving.md §10). On
// one node: (a) signed token transfers/s pushed alone, and with a concurrent load of a
// read-only serveSys query (GET /rows, five table rows); (b) that query's rate alone, and while
// the transfers are pushed. All four windows in one run, for a node with the default query
// threads (service_threads absent: the cores less one) and one with service_threads 0 (every
// query on the chain thread), with the chain thread's CPU per transfer beside each rate.
// Targets: with threads, the transfer rate falls by at most 10% and the query rate by at most 20%.
// On a 2-core machine the client, the chain thread and the query thread share the cores.
// Run: make bench (needs build/services/tokens.wasm).
import { availableParallelism } from 'node:os';
import { formatRate } from '../lib/measure.js';
import { CONNECTIONS, PIPELINING, fillRows, rowsService, serveSysQueryLoad, startBenchNode, type BenchNode, type Load } from '../lib/http-load.js';
import { SECONDS, WARM_UP_SECONDS, closedLoopRate, type LoadTiming, type LoadWindow } from '../lib/closed-loop.js';
import { cpuSeconds } from '../lib/cpu-time.js';
import { CONCURRENCY, preparedTransfers, transferPusher, type TransferPusher } from '../lib/transfers.js';
import { closedLoopTransfers, verifiesPerSecond } from '../lib/verify-rate.js';
import { nodeProcessId } from '../../tests/lib/node-process.js';

const TRANSFER_FALL_TARGET = 0.10;
const QUERY_FALL_TARGET = 0.20;
const TIMING: LoadTiming = { warmUpSeconds: WARM_UP_SECONDS, seconds: SECONDS };
/** Enough prepared transfers for the two windows that push them (each with its warm-up), at every core's verify rate. */
const TRANSFERS = 2 * closedLoopTransfers(verifiesPerSecond());

interface Figures {
  readonly rates: number[];
  /** The chain thread's CPU seconds per second of the window. */
  readonly chainBusy: number;
}

/** Runs `loads` together over one window; each load's rate, and how busy the chain thread was. */
async function together(node: BenchNode, loads: readonly ((window: LoadWindow) => Promise<number>)[]): Promise<Figures> {
  const pid = nodeProcessId(node.node);
  let before = 0, spent = 0;
  // One load opens and closes the shared window: every load has the same timing.
  const windows: LoadWindow[] = loads.map((_, i) => i === 0
    ? { onStart: () => { before = cpuSeconds(pid, pid); }, onEnd: () => { spent = cpuSeconds(pid, pid) - before; } }
    : {});
  const rates = await Promise.all(loads.map((load, i) => load(windows[i]!)));
  return { rates, chainBusy: spent / TIMING.seconds };
}

async function measureNode(label: string, config: Record<string, unknown>): Promise<void> {
  const node = await startBenchNode('queries', [await rowsService()], config);
  let pusher: TransferPusher | undefined;
  let query: Load | undefined;
  try {
    await fillRows(node);
    pusher = transferPusher(node.node.api, await preparedTransfers(node.node.api, TRANSFERS));
    query = await serveSysQueryLoad(node);
    const transfers = (window: LoadWindow) => closedLoopRate(CONCURRENCY, pusher!.push, window, TIMING);
    const queries = (window: LoadWindow) => query!.rate(TIMING, window);
    const transfersAlone = await together(node, [transfers]);
    const queriesAlone = await together(node, [queries]);
    const shared = await together(node, [transfers, queries]);
    const transferFall = 1 - shared.rates[0]! / transfersAlone.rates[0]!;
    const queryFall = 1 - shared.rates[1]! / queriesAlone.rates[0]!;
    const line = (name: string, rate: number, unit: string, f: Figures, perOp: boolean) =>
      console.log(`  ${name.padEnd(38)} ${formatRate(rate).padStart(8)} ${unit}/s  (chain thread busy ${(f.chainBusy * 100).toFixed(0)}%`
        + `${perOp ? `, ${((f.chainBusy * 1e6) / rate).toFixed(0)} µs CPU per ${unit}` : ''})`);
    console.log(label);
    line('transfers alone', transfersAlone.rates[0]!, 'transfer', transfersAlone, true);
    line('transfers with the query load', shared.rates[0]!, 'transfer', shared, false);
    line('queries alone', queriesAlone.rates[0]!, 'query', queriesAlone, true);
    line('queries while transfers are pushed', shared.rates[1]!, 'query', shared, false);
    const verdict = (fall: number, target: number) => (fall <= target ? 'met' : 'NOT met');
    console.log(`  ${'transfer rate falls by'.padEnd(38)} ${(transferFall * 100).toFixed(1).padStart(8)} %  (target <= ${TRANSFER_FALL_TARGET * 100}%: ${verdict(transferFall, TRANSFER_FALL_TARGET)})`);
    console.log(`  ${'query rate falls by'.padEnd(38)} ${(queryFall * 100).toFixed(1).padStart(8)} %  (target <= ${QUERY_FALL_TARGET * 100}%: ${verdict(queryFall, QUERY_FALL_TARGET)})`);
  } finally {
    await pusher?.close();
    await query?.close();
    await node.stop();
  }
}

console.log(`bench/queries (node ${process.version}, ${availableParallelism()} cores); queries ${CONNECTIONS} connections x ${PIPELINING} pipelined, `
  + `transfers ${CONCURRENCY} in flight; ${WARM_UP_SECONDS} s warm-up, ${SECONDS} s window each`);
await measureNode('service_threads absent (the cores less one, at least one)', {});
await measureNode('service_threads 0 (queries on the chain thread)', { service_threads: 0 });
