// Offences and bans of peers (docs/p2p.md "What we build" 1, "Peers that attack"), on times the test gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OFFENCE_LIMIT, OFFENCE_WINDOW_MS, PeerConduct } from '../../../../../runtime/network/links/peer-conduct.js';

const BAN_MS = 300_000;

test('OFFENCE_LIMIT offences within the window ban the peer for banMs; fewer do not', () => {
  const conduct = new PeerConduct(BAN_MS);
  for (let i = 1; i < OFFENCE_LIMIT; i++) assert.is(conduct.offence('10.0.0.1', i), undefined);
  assert.is(conduct.bannedUntil('10.0.0.1', OFFENCE_LIMIT), undefined);
  assert.is(conduct.offence('10.0.0.1', OFFENCE_LIMIT), OFFENCE_LIMIT + BAN_MS);
  assert.is(conduct.bannedUntil('10.0.0.1', OFFENCE_LIMIT + BAN_MS - 1), OFFENCE_LIMIT + BAN_MS);
  assert.is(conduct.bannedUntil('10.0.0.1', OFFENCE_LIMIT + BAN_MS), undefined, 'the ban ends');
  assert.is(conduct.bannedUntil('10.0.0.2', OFFENCE_LIMIT), undefined, 'another peer is not banned');
});

test('offences older than the window do not count', () => {
  const conduct = new PeerConduct(BAN_MS);
  for (let i = 0; i < 3 * OFFENCE_LIMIT; i++) assert.is(conduct.offence('p', i * (OFFENCE_WINDOW_MS / (OFFENCE_LIMIT - 1))), undefined, `offence ${i}`);
});

test('a ban given for a key of the peer holds for that key; a longer ban is not shortened', () => {
  const conduct = new PeerConduct(BAN_MS);
  conduct.ban('http://peer:1', 1_000);
  conduct.ban('http://peer:1', 500);
  assert.is(conduct.bannedUntil('http://peer:1', 0), 1_000);
});

test('many peers with old offences are forgotten, so that records cannot grow without bound', () => {
  const conduct = new PeerConduct(BAN_MS);
  for (let i = 0; i < 5_000; i++) conduct.offence(`peer${i}`, i);
  // Long after, one more offence clears the old records: the first peer starts again from one.
  conduct.offence('new', 10 * OFFENCE_WINDOW_MS);
  for (let i = 1; i < OFFENCE_LIMIT; i++) assert.is(conduct.offence('peer0', 10 * OFFENCE_WINDOW_MS + i), undefined);
  assert.ok(conduct.offence('peer0', 10 * OFFENCE_WINDOW_MS + OFFENCE_LIMIT) !== undefined);
});

test.run();
