// De-duplication's decisions (docs/p2p.md §1.4).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { duplicateNotices, outgoingYields, type LinkIdentity } from '../../../../../runtime/network/links/duplicate-links.js';

const link = (id: number, outgoing: boolean, fields: Partial<LinkIdentity> = {}): LinkIdentity => ({
  id, outgoing, secure: false, peerLinkId: id + 100, nodeId: 7n, hosts: ['b.example'], ...fields,
});

test('an incoming and an outgoing link to the same (host, node) make a notice on the incoming one', () => {
  const out = link(1, true);
  const inc = link(2, false, { hosts: ['b.example', '127.0.0.1'] });
  const notice = { kind: 'duplicateConnection', connectionId: 101, secure: false };
  assert.equal(duplicateNotices(out, [out, inc]), [[2, notice]], 'learnt on the outgoing link');
  assert.equal(duplicateNotices(inc, [out, inc]), [[2, notice]], 'learnt on the incoming link');
});

test('no notice for another node, no common host, an unknown node id, or two links the same way', () => {
  const out = link(1, true);
  assert.equal(duplicateNotices(out, [out, link(2, false, { nodeId: 8n })]), []);
  assert.equal(duplicateNotices(out, [out, link(2, false, { hosts: ['c.example'] })]), []);
  assert.equal(duplicateNotices(out, [out, link(2, false, { nodeId: undefined })]), []);
  assert.equal(duplicateNotices(out, [out, link(2, true)]), []);
});

test('the outgoing link yields to a more secure one, or, equally secure, when the peer\'s node id is the smaller', () => {
  const inc = link(2, false);
  assert.ok(outgoingYields(link(1, true, { nodeId: 7n }), inc, false, 9n), 'peer 7 < us 9');
  assert.not.ok(outgoingYields(link(1, true, { nodeId: 7n }), inc, false, 5n), 'peer 7 > us 5: the peer closes its own');
  assert.ok(outgoingYields(link(1, true, { nodeId: 7n }), inc, true, 5n), 'the other is secure, ours is not');
  assert.not.ok(outgoingYields(link(1, true, { nodeId: 7n, secure: true }), inc, false, 9n), 'ours is the secure one');
  assert.not.ok(outgoingYields(link(1, true, { nodeId: 7n }), link(2, false, { nodeId: 8n }), false, 9n), 'another node');
  assert.not.ok(outgoingYields(link(1, false), inc, false, 9n), 'not an outgoing link');
});

test.run();
