// A raw websocket peer acting as a hostile node against a real node process (docs/p2p.md
// "What we build" 1, "Peers that attack"): it links from a loopback address of its choosing
// (127.0.0.0/8 is all loopback on Linux, so bans of one address leave the others alone), says its
// hello as a node does, hears the blocks the node streams, and sends whatever the test makes.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';
import type { SignedBlock } from '../../host-api/types/index.js';
import { encodeLinkMessage } from '../../runtime/network/links/link-messages.js';
import { decodeMessage, encodeMessage, type P2PMessage } from '../../runtime/network/messages/index.js';
import type { RunningNode } from './node-process.js';

export interface HostilePeer {
  readonly socket: WebSocket;
  /** The blocks the node streamed to it, in the order they came. */
  readonly blocks: SignedBlock[];
  /** The type of every frame the node sent it, in order. */
  readonly types: number[];
  /** Settles when the link closes, with the close code and reason the node gave. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Whether the link is still open. */
  open(): boolean;
  send(frame: P2PMessage | Uint8Array): void;
}

export interface HostileOptions {
  /** The loopback address it links from; 127.0.0.1 by default. */
  readonly from?: string;
  /** Send IdMessage and HostnamesMessage first, as every node does (docs/p2p.md §1.3); true by default. */
  readonly hello?: boolean;
  /** Then InitMessage and a committed pre-genesis HelloRequest, so that the node streams its chain from block 2. */
  readonly stream?: boolean;
}

/** BlockMessage (docs/p2p.md §2.1). */
const BLOCK_MESSAGE_TYPE = 34;

const socketOptions = (node: Pick<RunningNode, 'port'>, from: string | undefined) => ({ headers: { host: `x-peers.127.0.0.1:${node.port}` }, ...(from ? { localAddress: from } : {}) });

/** Links to the node's `/p2p` as psibase dials it. */
export function linkHostile(node: Pick<RunningNode, 'port'>, options: HostileOptions = {}): Promise<HostilePeer> {
  const socket = new WebSocket(`ws://127.0.0.1:${node.port}/p2p`, socketOptions(node, options.from));
  const blocks: SignedBlock[] = [];
  const types: number[] = [];
  socket.on('message', (data: Buffer) => {
    types.push(data[0]!);
    if (data[0] !== BLOCK_MESSAGE_TYPE) return;
    const message = decodeMessage(new Uint8Array(data));
    if (message.kind === 'BlockMessage') blocks.push(message.body.block);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const send = (frame: P2PMessage | Uint8Array) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(frame instanceof Uint8Array ? frame : encodeMessage(frame));
  };
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => {
      if (options.hello ?? true) {
        send(encodeLinkMessage({ kind: 'id', nodeId: randomBytes(8).readBigUInt64LE() | 1n, connectionId: 1 }));
        send(encodeLinkMessage({ kind: 'hostnames', hosts: [] }));
      }
      if (options.stream) {
        send({ kind: 'InitMessage', body: { version: 0 } });
        send({ kind: 'HelloRequest', body: { xid: { id: new Uint8Array(32), num: 1 }, committed: true } });
      }
      resolve({ socket, blocks, types, closed, open: () => socket.readyState === WebSocket.OPEN, send });
    });
  });
}

/** The status and body with which the node refuses a link from `from`; an error if it accepts it. */
export function linkRefusal(node: Pick<RunningNode, 'port'>, from?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${node.port}/p2p`, socketOptions(node, from));
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.on('open', () => {
      socket.terminate();
      reject(new Error('the link was accepted'));
    });
    socket.on('error', () => undefined);
  });
}

/** The resident memory of a process, in bytes (Linux /proc). */
export async function residentBytes(pid: number): Promise<number> {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
