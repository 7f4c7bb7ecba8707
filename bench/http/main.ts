// bench/http: requests/s of a serveSys query that reads five table rows (through the node, the
// http service and the SDK), next to a bare node:http server answering a constant, with the
// same client and concurrency in the same run. Target: the query reaches 40% of the bare rate.
// Run: make bench.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { startNode } from '../../tests/lib/node-process.js';
import { builtBundle } from '../../tests/lib/test-bundle.js';
import { compiledEntry } from '../../tests/unit/services-wasm/program.js';
import { formatRate } from '../lib/measure.js';

const TARGET = 0.4;
const CONNECTIONS = 16;
const PIPELINING = 4;
const SECONDS = 3;

/** Requests per second of GET `path` with Host `host` against 127.0.0.1:`port`. */
async function rate(port: number, host: string, path: string): Promise<{ rate: number; body: string }> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: PIPELINING });
  const first = await pool.request({ path, method: 'GET', headers: { host } });
  const body = await first.body.text();
  if (first.statusCode !== 200) throw new Error(`GET ${host}${path}: ${first.statusCode} ${body}`);
  let done = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS * PIPELINING }, async () => {
    while (performance.now() < deadline) {
      const r = await pool.request({ path, method: 'GET', headers: { host } });
      await r.body.arrayBuffer();
      if (r.statusCode !== 200) throw new Error(`GET ${host}${path}: ${r.statusCode}`);
      done++;
    }
  }));
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  return { rate: done / elapsed, body };
}

// The bare server runs in its own process, as the node does.
if (process.argv[2] === 'bare-server') {
  const body = Buffer.from('[{"id":0,"label":"row 0","amount":"0"}]');
  createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  }).listen(0, '127.0.0.1', function (this: import('node:net').Server) {
    process.send!((this.address() as import('node:net').AddressInfo).port);
  });
} else {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-http-'));
  const rows = await compiledEntry('bench/services/rows.as.ts');
  writeFileSync(join(dir, 'bench.bundle'), await builtBundle([
    { account: 'rows', flags: 0n, code: rows.binary, genesis: false, server: 'rows', initActions: [], files: [] },
  ]));
  const node = await startNode(join(dir, 'node'), ['-p', 'prod', '--boot', join(dir, 'bench.bundle')]);
  const bare = fork(new URL(import.meta.url).pathname, ['bare-server']);
  try {
    await new ChainClient(node.api).push([
      { sender: 'rows', service: 'rows', method: 'fill', rawData: new Uint8Array(2) },
    ], { waitFor: 'applied' });
    const query = await rate(Number(node.port), `rows.${new URL(node.api).host}`, '/rows');
    const barePort = await new Promise<number>((resolve) => bare.once('message', (port) => resolve(port as number)));
    const constant = await rate(barePort, `127.0.0.1:${barePort}`, '/rows');
    const ratio = query.rate / constant.rate;
    console.log(`bench/http (node ${process.version}); ${CONNECTIONS} connections x ${PIPELINING} pipelined, ${SECONDS} s each`);
    console.log(`${'serveSys query reading 5 rows'.padEnd(40)} ${formatRate(query.rate).padStart(10)} req/s  (${query.body.length}-byte reply)`);
    console.log(`${'bare node:http server, constant reply'.padEnd(40)} ${formatRate(constant.rate).padStart(10)} req/s`);
    console.log(`${'query / bare'.padEnd(40)} ${(ratio * 100).toFixed(1).padStart(9)} %  (target ${TARGET * 100}%: ${ratio >= TARGET ? 'met' : 'NOT met'})`);
  } finally {
    bare.kill();
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
