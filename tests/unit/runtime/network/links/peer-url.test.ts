// How peer URLs are dialled (docs/p2p.md §1.1).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LinkError } from '../../../../../runtime/network/links/link-error.js';
import { peerAddress } from '../../../../../runtime/network/links/peer-url.js';
import { assertFails } from '../../../../lib/assert-error.js';

test('http and https URLs dial /p2p with Host x-peers.<authority>; https is secure', () => {
  assert.equal(peerAddress('http://Node-B.example:8080'), {
    url: 'http://Node-B.example:8080', dial: 'ws://node-b.example:8080/p2p', host: 'x-peers.node-b.example:8080',
    endpoint: 'node-b.example:8080', hosts: ['node-b.example'], secure: false, local: false,
  });
  const tls = peerAddress('https://peer.example');
  assert.equal([tls.dial, tls.host, tls.endpoint, tls.secure], ['wss://peer.example/p2p', 'x-peers.peer.example', 'peer.example:443', true]);
  assert.is(peerAddress('http://10.1.2.3').endpoint, '10.1.2.3:80');
});

test('a URL without a slash gets http:// in front', () => {
  const bare = peerAddress('127.0.0.1:8080');
  assert.equal([bare.url, bare.dial, bare.host], ['127.0.0.1:8080', 'ws://127.0.0.1:8080/p2p', 'x-peers.127.0.0.1:8080']);
});

test('anything else is a unix socket path, ws:// included (as psibase reads it)', () => {
  assert.equal(peerAddress('/run/node.sock'), {
    url: '/run/node.sock', dial: 'ws+unix:/run/node.sock:/p2p', host: 'x-peers.psibase.localhost',
    endpoint: '/run/node.sock', hosts: [], secure: false, local: true,
  });
  assert.is(peerAddress('ws://peer.example:8080').local, true);
});

test('an http URL without a host is refused', () => {
  assertFails(() => peerAddress('http://'), LinkError, 'P2P_BAD_URL', ['http://']);
  assertFails(() => peerAddress('http://exa mple:1'), LinkError, 'P2P_BAD_URL');
});

test.run();
