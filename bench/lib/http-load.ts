// HTTP load shared by the HTTP benchmarks: a node booted from the built bundle plus benchmark
// services, requests/s of one request under a fixed client load, and bench/http's serveSys
// figure (the `rows` service answering five rows), so other benchmarks print it from the same run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { BundleServiceInput } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { nodeProcessId, startNode, type RunningNode } from '../../tests/lib/node-process.js';
import { builtBundle } from '../../tests/lib/test-bundle.js';
import { compiledEntry } from '../../tests/unit/services-wasm/program.js';
import { SECONDS, WARM_UP_SECONDS, closedLoopRate, type LoadTiming, type LoadWindow } from './closed-loop.js';
import { cpuSeconds } from './cpu-time.js';

export const CONNECTIONS = 16;
export const PIPELINING = 4;

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  contentType?: string;
  body?: string;
}

export interface LoadResult {
  rate: number;
  /** The body of the first reply. */
  body: string;
  /**
   * CPU µs the node's main thread spent per request in the measured window: a figure a busy
   * machine disturbs less than the rate (other processes take turns on the cores, not cycles).
   */
  mainThreadMicros: number;
}

/** A closed-loop load of one request, measured as often as asked. */
export interface Load {
  /** The body of the first reply. */
  readonly body: string;
  /** Requests per second within a window (after a warm-up); every reply is checked to be a 200. */
  rate(timing?: LoadTiming, window?: LoadWindow): Promise<number>;
  close(): Promise<void>;
}

/** A load of `request` with Host `host` against 127.0.0.1:`port`, its first reply checked to be a 200. */
export async function openLoad(port: number, host: string, request: LoadRequest): Promise<Load> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: PIPELINING });
  // undici sends the next request on a connection only after the previous reply's headers unless
  // told a request does not block (it treats every method but HEAD as blocking by default).
  const options = {
    path: request.path, method: request.method ?? 'GET', body: request.body, blocking: false,
    headers: { host, ...(request.contentType ? { 'content-type': request.contentType } : {}) },
  };
  const first = await pool.request(options);
  const body = await first.body.text();
  if (first.statusCode !== 200) {
    await pool.close();
    throw new Error(`${options.method} ${host}${request.path}: ${first.statusCode} ${body}`);
  }
  const one = async () => {
    const r = await pool.request(options);
    await r.body.arrayBuffer();
    if (r.statusCode !== 200) throw new Error(`${options.method} ${host}${request.path}: ${r.statusCode}`);
  };
  return {
    body,
    rate: (timing, window) => closedLoopRate(CONNECTIONS * PIPELINING, one, window, timing),
    close: () => pool.close(),
  };
}

/** Requests per second (after a warm-up) of `request` with Host `host` to `node`, each reply checked to be a 200. */
export function requestRate(node: BenchNode, host: string, request: LoadRequest): Promise<LoadResult> {
  return rateOnce(node, openLoad(Number(node.node.port), host, request));
}

/** One measured window of a load, which is then closed, with the node's main-thread CPU in it. */
async function rateOnce(node: BenchNode, opened: Promise<Load>): Promise<LoadResult> {
  const load = await opened;
  const pid = nodeProcessId(node.node);
  let before = 0;
  let spent = 0;
  try {
    const rate = await load.rate(undefined, {
      onStart: () => { before = cpuSeconds(pid, pid); },
      onEnd: () => { spent = cpuSeconds(pid, pid) - before; },
    });
    return { rate, body: load.body, mainThreadMicros: (spent * 1e6) / (rate * SECONDS) };
  } finally {
    await load.close();
  }
}

/** Windows of one load in turn with the others in interleavedRates. */
export const INTERLEAVED_ROUNDS = 3;
const INTERLEAVED_WINDOW: LoadTiming = { warmUpSeconds: 0.5, seconds: SECONDS / INTERLEAVED_ROUNDS };

/** A load's figures in interleavedRates: its rate and the CPU µs per request of the process serving it. */
export interface InterleavedFigures {
  rate: number;
  serverMicros: number;
}

/**
 * Requests per second of each load, measured in turns: after a full warm-up of each, rounds of
 * one short window per load (each after a short warm-up that refills the pipeline). Loads
 * compared this way see the same machine: this machine's speed drifts by a third within a
 * minute, which measuring one load after the other reads as a difference between them. With
 * each rate, the CPU per request of its server (`cpuSecondsOf[i]` reads load i's server's CPU
 * seconds), which other processes on the cores disturb less than the rate.
 */
export async function interleavedRates(loads: readonly Load[], cpuSecondsOf: readonly (() => number)[]): Promise<InterleavedFigures[]> {
  // A warm-up with no measured window: its rate (0 of 0 s) is not used.
  for (const load of loads) await load.rate({ warmUpSeconds: WARM_UP_SECONDS, seconds: 0 });
  const rates = loads.map(() => 0);
  const cpu = loads.map(() => 0);
  for (let round = 0; round < INTERLEAVED_ROUNDS; round++) {
    for (const [i, load] of loads.entries()) {
      let before = 0;
      rates[i]! += await load.rate(INTERLEAVED_WINDOW, {
        onStart: () => { before = cpuSecondsOf[i]!(); },
        onEnd: () => { cpu[i]! += cpuSecondsOf[i]!() - before; },
      });
    }
  }
  // The requests of a load's windows: the sum of their rates times a window's length.
  return rates.map((total, i) => ({ rate: total / INTERLEAVED_ROUNDS, serverMicros: (cpu[i]! * 1e6) / (total * INTERLEAVED_WINDOW.seconds) }));
}

export interface BenchNode {
  node: RunningNode;
  /** Pushes one action and waits until it is applied. */
  push(sender: string, service: string, method: string, rawData: Uint8Array): Promise<void>;
  /** The host of a service's subdomain on this node. */
  hostOf(service: string): string;
  stop(): Promise<void>;
}

/**
 * A production node booted from the built services plus `services` (each its own server);
 * `config` holds the fields its config.json starts with (the defaults for the rest).
 */
export async function startBenchNode(name: string, services: BundleServiceInput[], config: Record<string, unknown> = {}): Promise<BenchNode> {
  const dir = mkdtempSync(join(tmpdir(), `tsibase-bench-${name}-`));
  writeFileSync(join(dir, 'bench.bundle'), await builtBundle(services));
  mkdirSync(join(dir, 'node'));
  if (Object.keys(config).length > 0) writeFileSync(join(dir, 'node', 'config.json'), JSON.stringify(config));
  const node = await startNode(join(dir, 'node'), ['-p', 'prod', '--boot', join(dir, 'bench.bundle')]);
  const client = new ChainClient(node.api);
  return {
    node,
    push: async (sender, service, method, rawData) => {
      await client.push([{ sender, service, method, rawData }], { waitFor: 'applied' });
    },
    hostOf: (service) => `${service}.${new URL(node.api).host}`,
    stop: async () => {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A benchmark service compiled from `entry`, deployed as `account` and registered as its own server. */
export async function benchService(account: string, entry: string): Promise<BundleServiceInput> {
  const { binary } = await compiledEntry(entry);
  return { account, flags: 0n, code: binary, genesis: false, server: account, initActions: [], files: [] };
}

/** bench/http's service: `rows` answering GET /rows with five of its ten rows. */
export function rowsService(): Promise<BundleServiceInput> {
  return benchService('rows', 'bench/services/rows.as.ts');
}

/** Fills `rows` (once per node); then `serveSysQueryRate` measures it. */
export function fillRows(node: BenchNode): Promise<void> {
  return node.push('rows', 'rows', 'fill', new Uint8Array(2));
}

/** bench/http's query: GET /rows (a serveSys query reading 5 rows). */
export function serveSysQueryLoad(node: BenchNode): Promise<Load> {
  return openLoad(Number(node.node.port), node.hostOf('rows'), { path: '/rows' });
}

/** bench/http's query figure alone: requests/s of GET /rows. */
export function serveSysQueryRate(node: BenchNode): Promise<LoadResult> {
  return rateOnce(node, serveSysQueryLoad(node));
}
