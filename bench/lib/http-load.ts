// HTTP load shared by the HTTP benchmarks: a node booted from the built bundle plus benchmark
// services, requests/s of one request under a fixed client load, and bench/http's serveSys
// figure (the `rows` service answering five rows), so other benchmarks print it from the same run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { BundleServiceInput } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { startNode, type RunningNode } from '../../tests/lib/node-process.js';
import { builtBundle } from '../../tests/lib/test-bundle.js';
import { compiledEntry } from '../../tests/unit/services-wasm/program.js';
import { closedLoopRate } from './closed-loop.js';

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
}

/** Requests per second (after a warm-up) of `request` with Host `host` against 127.0.0.1:`port`, each reply checked to be a 200. */
export async function requestRate(port: number, host: string, request: LoadRequest): Promise<LoadResult> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: PIPELINING });
  // undici sends the next request on a connection only after the previous reply's headers unless
  // told a request does not block (it treats every method but HEAD as blocking by default).
  const options = {
    path: request.path, method: request.method ?? 'GET', body: request.body, blocking: false,
    headers: { host, ...(request.contentType ? { 'content-type': request.contentType } : {}) },
  };
  const first = await pool.request(options);
  const body = await first.body.text();
  if (first.statusCode !== 200) throw new Error(`${options.method} ${host}${request.path}: ${first.statusCode} ${body}`);
  const rate = await closedLoopRate(CONNECTIONS * PIPELINING, async () => {
    const r = await pool.request(options);
    await r.body.arrayBuffer();
    if (r.statusCode !== 200) throw new Error(`${options.method} ${host}${request.path}: ${r.statusCode}`);
  });
  await pool.close();
  return { rate, body };
}

export interface BenchNode {
  node: RunningNode;
  /** Pushes one action and waits until it is applied. */
  push(sender: string, service: string, method: string, rawData: Uint8Array): Promise<void>;
  /** The host of a service's subdomain on this node. */
  hostOf(service: string): string;
  stop(): Promise<void>;
}

/** A production node booted from the built services plus `services` (each its own server). */
export async function startBenchNode(name: string, services: BundleServiceInput[]): Promise<BenchNode> {
  const dir = mkdtempSync(join(tmpdir(), `tsibase-bench-${name}-`));
  writeFileSync(join(dir, 'bench.bundle'), await builtBundle(services));
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

/** bench/http's figure: requests/s of GET /rows (a serveSys query reading 5 rows). */
export function serveSysQueryRate(node: BenchNode): Promise<LoadResult> {
  return requestRate(Number(node.node.port), node.hostOf('rows'), { path: '/rows' });
}
