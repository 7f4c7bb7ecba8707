// The perf report of /native/admin/perf (docs/serving.md §2, docs/http.md §7). On the wire every figure is a
// 64-bit value in psibase (timestamps, counters, byte counts, CPU time), so every figure is a
// decimal string; the task id is a thread id (pid_t, 32 bits) and stays a number.

import { countOf } from './counts.js';
import { NETWORK_FIELDS, type NetworkFigures } from './network-figures.js';
import { MEMORY_CATEGORIES, memoryByCategory, readResidentMemory, type MemoryCategory, type WasmMemoryFigures } from './memory-categories.js';
import { readThreadFigures, type ThreadFigures } from './thread-stats.js';
import { TRANSACTION_FIELDS, type TransactionFigures } from './transaction-counters.js';

export interface PerfTask {
  readonly id: number;
  readonly group: string;
  readonly user: string;
  readonly system: string;
  readonly pageFaults: string;
  readonly read: string;
  readonly written: string;
}

export interface PerfReport {
  /** Microseconds of the monotonic clock: its epoch (boot) is stable while the node runs. */
  readonly timestamp: string;
  readonly transactions: Readonly<Record<(typeof TRANSACTION_FIELDS)[number], string>>;
  readonly network: Readonly<Record<(typeof NETWORK_FIELDS)[number], string>>;
  /** Resident bytes by category, in the order of MEMORY_CATEGORIES. */
  readonly memory: Readonly<Record<MemoryCategory, string>>;
  /** One entry per thread, in thread id order. */
  readonly tasks: readonly PerfTask[];
}

/** What the node supplies; everything else is read from the kernel. */
export interface PerfSources {
  /** The chain's counters (a TransactionCounters). */
  readonly transactions: { figures(): TransactionFigures };
  /** Peer links and the blocks they brought (the node's NodeNetwork and PeerLinks). */
  readonly network: () => NetworkFigures;
  /** The LMDB data files (`<db dir>/data.mdb`) whose mapped pages count as `database`. */
  readonly databaseFiles: readonly string[];
  /** The wasm engine's figures (Engine.memoryFigures). */
  readonly wasm: () => WasmMemoryFigures;
  /** The /proc directory of this process; '/proc/self' unless a test points elsewhere. */
  readonly procDir?: string;
}

function perfTimestamp(): bigint {
  return process.hrtime.bigint() / 1000n;
}

function transactionsOf(figures: TransactionFigures): PerfReport['transactions'] {
  const fields = TRANSACTION_FIELDS.map((f) => [f, String(countOf(`transactions.${f}`, figures[f]))]);
  return Object.fromEntries(fields) as PerfReport['transactions'];
}

function networkOf(figures: NetworkFigures): PerfReport['network'] {
  const fields = NETWORK_FIELDS.map((f) => [f, String(countOf(`network.${f}`, figures[f]))]);
  return Object.fromEntries(fields) as PerfReport['network'];
}

function taskOf(thread: ThreadFigures): PerfTask {
  return {
    id: thread.id,
    group: thread.group,
    user: String(thread.user),
    system: String(thread.system),
    pageFaults: String(thread.pageFaults),
    read: String(thread.read),
    written: String(thread.written),
  };
}

export function collectPerfReport(sources: PerfSources): PerfReport {
  const procDir = sources.procDir ?? '/proc/self';
  const timestamp = perfTimestamp();
  const memory = memoryByCategory(readResidentMemory(procDir, sources.databaseFiles), sources.wasm());
  const tasks = readThreadFigures(procDir, process.pid).map(taskOf);
  return {
    timestamp: String(timestamp),
    transactions: transactionsOf(sources.transactions.figures()),
    network: networkOf(sources.network()),
    memory: Object.fromEntries(MEMORY_CATEGORIES.map((c) => [c, String(memory[c])])) as PerfReport['memory'],
    tasks,
  };
}
