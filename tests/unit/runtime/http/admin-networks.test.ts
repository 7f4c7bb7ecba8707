// PSIBASE_ADMIN_IP (docs/http.md §4 rule 1): exact addresses and CIDR ranges, IPv4-mapped IPv6
// addresses matched as the IPv4 address they carry, loopback always admitted, and entries that
// do not parse refused naming the entry.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AdminNetworkError, AdminNetworks, adminNetworksOf } from '../../../../runtime/http/admin-networks.js';

const LIST = '10.9.8.7, 192.168.0.0/16,fd00::/8 , 2001:db8::5, 172.16.0.0/12, ::ffff:203.0.113.0/120';

// [address, admitted by LIST]
const VECTORS: [string, boolean][] = [
  // An exact address matches itself only, not addresses it is a string prefix of.
  ['10.9.8.7', true],
  ['10.9.8.70', false],
  ['10.9.8.71', false],
  ['10.9.8.6', false],
  ['10.9.8.8', false],
  ['::ffff:10.9.8.7', true],
  ['::ffff:10.9.8.70', false],
  ['::ffff:a09:807', true],
  // A /16: its first, last and a middle address; its neighbours are out.
  ['192.168.0.0', true],
  ['192.168.255.255', true],
  ['192.168.12.34', true],
  ['192.167.255.255', false],
  ['192.169.0.0', false],
  ['::ffff:192.168.1.1', true],
  // A /12 that does not end on a byte boundary: 172.16.0.0 - 172.31.255.255.
  ['172.16.0.1', true],
  ['172.31.255.254', true],
  ['172.15.255.255', false],
  ['172.32.0.0', false],
  // fd00::/8 holds fd00:: - fdff:ffff:…; fc00::/8 and fe00:: are out.
  ['fd00::1', true],
  ['fd12:3456:789a::1', true],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
  ['fc00::1', false],
  ['fe00::1', false],
  // An exact IPv6 address, in any of its spellings.
  ['2001:db8::5', true],
  ['2001:0db8:0000:0000:0000:0000:0000:0005', true],
  ['2001:DB8::5', true],
  ['2001:db8::50', false],
  ['2001:db8::4', false],
  // An IPv4-mapped range entry matches the plain IPv4 addresses it maps.
  ['203.0.113.9', true],
  ['203.0.114.9', false],
  // Loopback is the machine itself, listed or not.
  ['127.0.0.1', true],
  ['127.255.0.9', true],
  ['::1', true],
  ['::ffff:127.0.0.1', true],
  ['128.0.0.1', false],
  ['::2', false],
  // Everything else.
  ['10.0.0.1', false],
  ['8.8.8.8', false],
  ['0.0.0.0', false],
  ['::', false],
  ['2001:db9::5', false],
  // Not an address at all.
  ['', false],
  ['localhost', false],
  ['10.9.8.7/32', false],
];

test('addresses against exact entries and CIDR ranges, IPv4-mapped ones included', () => {
  const networks = AdminNetworks.parse(LIST);
  for (const [address, admitted] of VECTORS) assert.is(networks.admits(address), admitted, address);
});

test('without PSIBASE_ADMIN_IP only loopback is admitted', () => {
  for (const value of [undefined, '', ' , ']) {
    const networks = AdminNetworks.parse(value);
    for (const [address] of VECTORS) {
      const loopback = address === '::1' || address === '::ffff:127.0.0.1' || address.startsWith('127.');
      assert.is(networks.admits(address), loopback, `${value}: ${address}`);
    }
  }
});

test('a /0 range admits every address of its family; a /32 and a /128 only one', () => {
  const all4 = AdminNetworks.parse('0.0.0.0/0');
  assert.ok(all4.admits('8.8.8.8'));
  assert.ok(all4.admits('::ffff:8.8.8.8'));
  assert.not.ok(all4.admits('2001:db8::1'));
  const all6 = AdminNetworks.parse('::/0');
  assert.ok(all6.admits('2001:db8::1'));
  const one = AdminNetworks.parse('10.1.2.3/32,2001:db8::1/128');
  assert.ok(one.admits('10.1.2.3'));
  assert.not.ok(one.admits('10.1.2.4'));
  assert.ok(one.admits('2001:db8::1'));
  assert.not.ok(one.admits('2001:db8::2'));
});

test('an entry that does not parse is refused, naming it', () => {
  const bad = ['10.9.8', '10.9.8.7.6', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/-1', '10.0.0.0/x', '/8', 'example.com', '10.0.0.0 /8', '256.0.0.1'];
  for (const entry of bad) {
    try {
      AdminNetworks.parse(`127.0.0.1, ${entry}`);
      assert.unreachable(entry);
    } catch (err) {
      assert.instance(err, AdminNetworkError, entry);
      assert.is((err as AdminNetworkError).code, 'HTTP_BAD_ADMIN_IP');
      assert.ok((err as Error).message.startsWith(`PSIBASE_ADMIN_IP: '${entry.trim()}'`), (err as Error).message);
    }
  }
});

test("the process's variable is parsed once per value", () => {
  const first = adminNetworksOf({ PSIBASE_ADMIN_IP: '10.0.0.0/8' });
  assert.is(adminNetworksOf({ PSIBASE_ADMIN_IP: '10.0.0.0/8' }), first);
  const other = adminNetworksOf({ PSIBASE_ADMIN_IP: '10.9.8.7' });
  assert.is.not(other, first);
  assert.not.ok(other.admits('10.9.8.70'));
  assert.throws(() => adminNetworksOf({ PSIBASE_ADMIN_IP: '10.9.8.7/40' }), /PSIBASE_ADMIN_IP: '10.9.8.7\/40'/);
});

test.run();
