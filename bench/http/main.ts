// bench/http: requests/s of a serveSys query that reads five table rows (through the node, the
// http service and the SDK), next to a bare node:http server answering a constant, with the
// same client and concurrency in the same run, measured in alternating windows. Target: the
// query reaches 60% of the bare rate. With each, the CPU per request of the process serving it
// (the node's main thread; the bare server's process). Run: make bench.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { formatRate } from '../lib/measure.js';
import {
  CONNECTIONS, INTERLEAVED_ROUNDS, PIPELINING, fillRows, interleavedRates, openLoad, rowsService, serveSysQueryLoad, startBenchNode,
} from '../lib/http-load.js';
import { SECONDS, WARM_UP_SECONDS } from '../lib/closed-loop.js';
import { cpuSeconds } from '../lib/cpu-time.js';
import { nodeProcessId } from '../../tests/lib/node-process.js';

const TARGET = 0.6;

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
  const node = await startBenchNode('http', [await rowsService()]);
  const bare = fork(new URL(import.meta.url).pathname, ['bare-server']);
  try {
    await fillRows(node);
    const barePort = await new Promise<number>((resolve) => bare.once('message', (port) => resolve(port as number)));
    const query = await serveSysQueryLoad(node);
    const constant = await openLoad(barePort, `127.0.0.1:${barePort}`, { path: '/rows' });
    const nodePid = nodeProcessId(node.node);
    const [queryFigures, constantFigures] = await interleavedRates([query, constant], [() => cpuSeconds(nodePid, nodePid), () => cpuSeconds(bare.pid!)]);
    await Promise.all([query.close(), constant.close()]);
    const queryRate = queryFigures!.rate;
    const constantRate = constantFigures!.rate;
    const ratio = queryRate / constantRate;
    const cpu = (figures: { serverMicros: number }, whose: string) => `${figures.serverMicros.toFixed(1)} µs ${whose} CPU each`;
    console.log(`bench/http (node ${process.version}); ${CONNECTIONS} connections x ${PIPELINING} pipelined, ${SECONDS} s each `
      + `in ${INTERLEAVED_ROUNDS} alternating windows, after ${WARM_UP_SECONDS} s of warm-up each`);
    console.log(`${'serveSys query reading 5 rows'.padEnd(40)} ${formatRate(queryRate).padStart(10)} req/s  (${query.body.length}-byte reply; ${cpu(queryFigures!, 'node main-thread')})`);
    console.log(`${'bare node:http server, constant reply'.padEnd(40)} ${formatRate(constantRate).padStart(10)} req/s  (${cpu(constantFigures!, 'server')})`);
    console.log(`${'query / bare'.padEnd(40)} ${(ratio * 100).toFixed(1).padStart(9)} %  (target ${TARGET * 100}%: ${ratio >= TARGET ? 'met' : 'NOT met'})`);
  } finally {
    bare.kill();
    await node.stop();
  }
}
