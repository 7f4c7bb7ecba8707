// `tsibase keys` as a user runs it: a real process, real files.
import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../../lib/node-process.js';

const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('keys prints a P-256 private key, its public key as PEM and as hex', () => {
  const r = run('keys');
  assert.is(r.status, 0, r.stderr);
  const privatePem = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n/.exec(r.stdout)![0];
  const publicPem = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----\n/.exec(r.stdout)![0];
  const key = createPrivateKey(privatePem);
  assert.is(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  const derived = createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('hex').toUpperCase();
  assert.is(createPublicKey(publicPem).export({ format: 'der', type: 'spki' }).toString('hex').toUpperCase(), derived);
  assert.match(r.stdout, new RegExp(`public key \\(hex\\): ${derived}`));
});

test('keys --curve k1 --out writes a private key file (mode 600) that --show reads back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-keys-'));
  try {
    const file = join(dir, 'k1.pem');
    const made = run('keys', '--curve', 'k1', '--out', file);
    assert.is(made.status, 0, made.stderr);
    assert.is(statSync(file).mode & 0o777, 0o600);
    assert.is(createPrivateKey(readFileSync(file, 'utf8')).asymmetricKeyDetails?.namedCurve, 'secp256k1');
    const shown = run('keys', '--show', file);
    assert.is(shown.status, 0, shown.stderr);
    assert.is(/public key \(hex\): (\w+)/.exec(shown.stdout)![1], /public key \(hex\): (\w+)/.exec(made.stdout)![1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad arguments exit 2 with a message naming the problem', () => {
  const curve = run('keys', '--curve', 'ed25519');
  assert.is(curve.status, 2);
  assert.match(curve.stderr, /unknown curve 'ed25519'/);
  const unknown = run('keys', '--frobnicate');
  assert.is(unknown.status, 2);
  assert.match(unknown.stderr, /unknown option --frobnicate/);
  const missing = run('keys', '--show', '/nonexistent/key.pem');
  assert.is(missing.status, 1);
  assert.match(missing.stderr, /^tsibase keys: ENOENT: no such file or directory/);
  const command = run('launch');
  assert.is(command.status, 2);
  assert.match(command.stderr, /unknown command 'launch'/);
});

test.run();
