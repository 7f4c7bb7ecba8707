// docs/host-abi.md §3 socketSend / socketAutoClose: a context's replies are data it returns to the
// node, and what it owns without replying is reported as unanswered.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpReply } from '../../../../host-api/types/index.js';
import { ContextSockets } from '../../../../runtime/wasm/context-sockets.js';

const EBADF = 8;
const EINVAL = 28;

const reply = (status: number) => HttpReply.pack({ status, contentType: 'text/plain', body: new TextEncoder().encode(`s${status}`), headers: [] });
const openSockets = (...fds: number[]) => ({ isOpen: (fd: number) => fds.includes(fd) });

test('a reply on an open socket is recorded, once per socket, and the socket leaves the owned set', () => {
  const sockets = new ContextSockets({ open: openSockets(5, 6), owned: [5] });
  assert.is(sockets.send(5, reply(200)), 0);
  assert.is(sockets.send(5, reply(201)), EBADF, 'a socket this context replied on is no longer answerable');
  assert.is(sockets.autoClose(5, true), EBADF);
  const { replies, unanswered } = sockets.outcome();
  assert.equal(replies.map((r) => [r.socket, r.reply.status]), [[5, 200]]);
  assert.equal(unanswered, []);
});

test('sockets the node does not hold open are refused with EBADF; a reply that does not unpack with EINVAL', () => {
  const sockets = new ContextSockets({ open: openSockets(5) });
  assert.is(sockets.send(9, reply(200)), EBADF);
  assert.is(sockets.autoClose(9, true), EBADF);
  assert.is(sockets.send(5, Uint8Array.of(1, 2, 3)), EINVAL);
  assert.equal(sockets.outcome(), { replies: [], unanswered: [] });
});

test('ownership: the sockets given and taken with autoClose(on) are unanswered until replied; autoClose(off) gives one up', () => {
  const sockets = new ContextSockets({ open: openSockets(1, 2, 3), owned: [1] });
  assert.is(sockets.autoClose(2, true), 0);
  assert.is(sockets.autoClose(1, false), 0, 'a deferral');
  assert.equal(sockets.outcome().unanswered, [2]);
  assert.is(sockets.send(2, reply(404)), 0);
  assert.is(sockets.send(3, reply(200)), 0, 'any open socket may be answered, owned or not');
  const { replies, unanswered } = sockets.outcome();
  assert.equal(replies.map((r) => r.socket), [2, 3]);
  assert.equal(unanswered, []);
});

test.run();
