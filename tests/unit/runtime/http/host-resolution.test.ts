// docs/http.md §1: root and service hosts, longest match, ports, and hosts that redirect.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostName, hostPort, resolveHost } from '../../../../runtime/http/host-resolution.js';

const HOSTS = ['tsibase.localhost', 'example.com', 'chain.example.com'];

test('the root domain, with or without a port, in any case', () => {
  assert.equal(resolveHost('tsibase.localhost:8080', HOSTS), { kind: 'root', root: 'tsibase.localhost' });
  assert.equal(resolveHost('TSIBASE.localhost', HOSTS), { kind: 'root', root: 'tsibase.localhost' });
});

test('a service subdomain: one label that is a valid account name', () => {
  assert.equal(resolveHost('tokens.tsibase.localhost:8080', HOSTS), { kind: 'service', root: 'tsibase.localhost', service: 'tokens' });
  assert.equal(resolveHost('x-admin.tsibase.localhost', HOSTS), { kind: 'service', root: 'tsibase.localhost', service: 'x-admin' });
  assert.equal(resolveHost('auth-sig.example.com', HOSTS), { kind: 'service', root: 'example.com', service: 'auth-sig' });
});

test('the longest configured host wins', () => {
  assert.equal(resolveHost('chain.example.com', HOSTS), { kind: 'root', root: 'chain.example.com' });
  assert.equal(resolveHost('tokens.chain.example.com', HOSTS), { kind: 'service', root: 'chain.example.com', service: 'tokens' });
});

test('unknown hosts, nested labels and invalid labels go to the (matched or first) root', () => {
  assert.equal(resolveHost('elsewhere.org', HOSTS), { kind: 'other', root: 'tsibase.localhost' });
  assert.equal(resolveHost('a.b.tsibase.localhost', HOSTS), { kind: 'other', root: 'tsibase.localhost' });
  assert.equal(resolveHost('-bad.tsibase.localhost', HOSTS), { kind: 'other', root: 'tsibase.localhost' });
  assert.equal(resolveHost('waytoolongname.example.com', HOSTS), { kind: 'other', root: 'example.com' });
  assert.equal(resolveHost('anything', []), { kind: 'none' });
});

test('host names and ports, IPv6 literals included', () => {
  assert.is(hostName('Tokens.Example.com:80'), 'tokens.example.com');
  assert.is(hostPort('tokens.example.com:8080'), '8080');
  assert.is(hostPort('tokens.example.com'), undefined);
  assert.is(hostName('[::1]:8080'), '[::1]');
  assert.is(hostPort('[::1]:8080'), '8080');
});

test.run();
