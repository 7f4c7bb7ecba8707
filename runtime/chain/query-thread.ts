// A query thread (docs/serving.md §10): runs the http service's serve export in RPC mode on a
// SnapshotStore, the chain thread's state as its changes say, with an engine of its own (the
// same admission, metering and limits; modules compiled here from the stored code, admitted
// once per machine through the admitted-code cache as the chain thread's are).

import { parentPort, workerData } from 'node:worker_threads';
import { accountNumberFromName } from '../../host-api/names/index.js';
import { SnapshotStore } from '../db/snapshot-store.js';
import { defaultAdmittedCodeDir } from '../wasm/admitted-code-cache.js';
import { Engine } from '../wasm/engine.js';
import { Executor } from '../wasm/executor.js';
import type { FromQueryThread, QueryAnswer, QueryThreadData, ToQueryThread } from './query-messages.js';

const HTTP = accountNumberFromName('http');
/** Milliseconds without a request after which the thread lets its snapshot go. */
const IDLE_MS = 200;
const { location, view } = workerData as QueryThreadData;
const store = SnapshotStore.open(location);
store.apply(view);
const executor = new Executor(store, new Engine({ admittedCodeDir: defaultAdmittedCodeDir() }));

function answer(id: number, socket: number, rawData: Uint8Array): QueryAnswer {
  if (!store.ready()) return { id, handedOff: 'the chain thread committed again before this thread read its snapshot' };
  // The request's own socket is open here; whether another is, only the chain thread knows.
  const open = { isOpen: (fd: number) => fd === socket || store.handOff(`a reply on socket ${fd}, another request's,`) };
  const { error, sockets } = executor.run({ mode: 'rpc', target: { service: HTTP, export: 'serve', rawData }, sockets: { open, owned: [socket] } });
  if (store.handedOff) return { id, handedOff: store.handedOff.message };
  return { id, error: error ? error.message : null, sockets: sockets! };
}

/**
 * The buffers of the answers' reply bodies that each hold one body alone, handed over to the chain
 * thread rather than copied (a page's reply is kilobytes; copying it costs this thread more than
 * the rest of the message). HttpReply.unpack copied every body out of wasm memory into an array
 * of its own, or into a slab shared with other small arrays (host-api/encoding/bytes.ts), which
 * is copied as before. Nothing on this thread reads a body once it is answered.
 */
function ownBodyBuffers(answers: readonly QueryAnswer[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const answer of answers) {
    if (!('sockets' in answer)) continue;
    for (const { reply } of answer.sockets.replies) {
      const { body } = reply;
      if (body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) buffers.add(body.buffer);
    }
  }
  return [...buffers];
}

let idle: NodeJS.Timeout | undefined;
parentPort!.on('message', (message: ToQueryThread) => {
  if ('close' in message) {
    store.endSnapshot();
    return process.exit(0);
  }
  const { view, requests } = message;
  if (view) store.apply(view);
  const answers = requests.map(({ id, socket, rawData }) => answer(id, socket, rawData));
  parentPort!.postMessage({ answers } satisfies FromQueryThread, ownBodyBuffers(answers));
  clearTimeout(idle);
  idle = setTimeout(() => store.endSnapshot(), IDLE_MS).unref();
});
