import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, parsePublicKey, privateKeyToPkcs8 } from '../../../../host-api/crypto/keys.js';
import { bytesToHex, hexToBytes } from '../../../../host-api/encoding/hex.js';
import { KeysError } from '../../../../runtime/keys/errors.js';
import { KEYS_FILE } from '../../../../runtime/keys/key-file.js';
import { NodeKeys } from '../../../../runtime/keys/node-keys.js';
import { assertFails } from '../../../lib/assert-error.js';
import { inTempDir } from '../../../lib/temp-dir.js';
import { assertSignsFor } from './helpers.js';

// Keys the node holds in its directory, through the NodeKeys facade with no PKCS#11 module.

const SERVICE = 'verify-sig';

function withKeys<T>(dir: string, run: (keys: NodeKeys) => T): T {
  const keys = NodeKeys.open(dir, []);
  try {
    return run(keys);
  } finally {
    keys.close();
  }
}

/** PKCS#8 as OpenSSL writes it, not as this project encodes it. */
function opensslPkcs8(namedCurve: 'prime256v1' | 'secp256k1'): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve });
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('hex');
}

test('a generated key is a P-256 verify-sig key that signs, and survives reopening', () => {
  inTempDir((dir) => {
    const key = withKeys(dir, (keys) => {
      assert.equal(keys.list(), []);
      const added = keys.add({ service: SERVICE });
      assert.is(added.service, SERVICE);
      assert.is(parsePublicKey(hexToBytes(added.rawData)).curve, 'P-256');
      assert.equal(keys.list(), [added]);
      assertSignsFor(keys.signer(hexToBytes(added.rawData)), added);
      return added;
    });
    withKeys(dir, (keys) => {
      assert.equal(keys.list(), [key]);
      assertSignsFor(keys.signer(hexToBytes(key.rawData)), key);
    });
  });
});

test('imported keys of both curves, in any hex case, are listed in order and persist', () => {
  inTempDir((dir) => {
    const imports = [opensslPkcs8('prime256v1'), opensslPkcs8('secp256k1').toUpperCase(), bytesToHex(privateKeyToPkcs8(generateKeyPair('secp256k1')))];
    const added = withKeys(dir, (keys) => imports.map((rawData) => keys.add({ service: SERVICE, rawData })));
    assert.equal(added.map((key) => parsePublicKey(hexToBytes(key.rawData)).curve), ['P-256', 'secp256k1', 'secp256k1']);
    withKeys(dir, (keys) => {
      assert.equal(keys.list(), added);
      for (const key of added) assertSignsFor(keys.signer(hexToBytes(key.rawData)), key);
    });
  });
});

test('importing a held key again returns it without storing it twice', () => {
  inTempDir((dir) => {
    withKeys(dir, (keys) => {
      const rawData = opensslPkcs8('prime256v1');
      const first = keys.add({ service: SERVICE, rawData });
      assert.equal(keys.add({ service: SERVICE, rawData: rawData.toUpperCase() }), first);
      assert.equal(keys.list(), [first]);
    });
    const stored = JSON.parse(readFileSync(join(dir, KEYS_FILE), 'utf8')) as { keys: unknown[] };
    assert.is(stored.keys.length, 1);
  });
});

test('the key file is readable by the node user only', () => {
  inTempDir((dir) => {
    withKeys(dir, (keys) => keys.add({ service: SERVICE }));
    assert.is(statSync(join(dir, KEYS_FILE)).mode & 0o777, 0o600);
  });
});

test('bad requests are refused with a code and a message naming the problem, and store nothing', () => {
  inTempDir((dir) => {
    withKeys(dir, (keys) => {
      const valid = opensslPkcs8('prime256v1');
      assertFails(() => keys.add({ service: 'verify-other' }), KeysError, 'KEYS_UNKNOWN_SERVICE', ['verify-other']);
      assertFails(() => keys.add({ service: 'verify-other', rawData: valid }), KeysError, 'KEYS_UNKNOWN_SERVICE');
      assertFails(() => keys.add({ rawData: valid }), KeysError, 'KEYS_BAD_REQUEST', ['"service"']);
      assertFails(() => keys.add({ service: SERVICE, rawData: 12 }), KeysError, 'KEYS_BAD_REQUEST', ['"rawData"']);
      assertFails(() => keys.add([SERVICE]), KeysError, 'KEYS_BAD_REQUEST', ['JSON object']);
      assertFails(() => keys.add(null), KeysError, 'KEYS_BAD_REQUEST', ['JSON object']);
      assertFails(() => keys.add({ service: SERVICE, rawData: 'abc' }), KeysError, 'KEYS_BAD_REQUEST', ['rawData', 'odd length']);
      assertFails(() => keys.add({ service: SERVICE, rawData: 'zz' }), KeysError, 'KEYS_BAD_REQUEST', ['rawData', "invalid hex character 'z'"]);
      assertFails(() => keys.add({ service: SERVICE, rawData: '' }), KeysError, 'KEYS_BAD_REQUEST', ['rawData', 'PKCS#8']);
      const publicKey = bytesToHex(generateKeyPair().publicKey);
      assertFails(() => keys.add({ service: SERVICE, rawData: publicKey }), KeysError, 'KEYS_BAD_REQUEST', ['rawData', 'PKCS#8']);
      assertFails(() => keys.add({ service: SERVICE, rawData: `${valid}00` }), KeysError, 'KEYS_BAD_REQUEST', ['rawData', 'trailing bytes']);
      const otherPublic = generateKeyPair().publicKey.subarray(-65);
      const mismatched = valid.slice(0, -130) + Buffer.from(otherPublic).toString('hex');
      assertFails(() => keys.add({ service: SERVICE, rawData: mismatched }), KeysError, 'KEYS_BAD_REQUEST', ['does not match']);
      const zeroScalar = valid.slice(0, 72) + '00'.repeat(32) + valid.slice(136);
      assertFails(() => keys.add({ service: SERVICE, rawData: zeroScalar }), KeysError, 'KEYS_BAD_REQUEST', ['not a valid P-256 private key']);
      assertFails(() => keys.add({ service: SERVICE, rawData: valid, device: 'ab' }), KeysError, 'KEYS_BAD_REQUEST', ['"device"']);
      assertFails(() => keys.add({ service: SERVICE, device: 'ab' }), KeysError, 'KEYS_UNKNOWN_DEVICE', ["'ab'"]);
      assert.equal(keys.list(), []);
    });
  });
});

test('signing needs a held key and a 32-byte digest', () => {
  inTempDir((dir) => {
    withKeys(dir, (keys) => {
      assertFails(() => keys.signer(generateKeyPair().publicKey), KeysError, 'KEYS_UNKNOWN_KEY');
      const key = keys.add({ service: SERVICE });
      const signer = keys.signer(hexToBytes(key.rawData));
      assertFails(() => signer(new Uint8Array(31)), KeysError, 'KEYS_BAD_REQUEST', ['32 bytes']);
    });
  });
});

test('a damaged key file stops the node from opening its keys, naming the file', () => {
  inTempDir((dir) => {
    const file = join(dir, KEYS_FILE);
    for (const [content, problem] of [
      ['{"keys": [', 'JSON'],
      ['[]', '"keys" array'],
      ['{"keys": [{"service": "verify-sig"}]}', 'keys[0]'],
      ['{"keys": [{"service": "verify-sig", "privateKey": "00"}]}', 'PKCS#8'],
      [`{"keys": [{"service": "other", "privateKey": "${opensslPkcs8('prime256v1')}"}]}`, "'other'"],
    ]) {
      writeFileSync(file, content!);
      assertFails(() => NodeKeys.open(dir, []), KeysError, 'KEYS_BAD_FILE', [file, problem!]);
    }
  });
});

test('requests about devices are checked before any device is looked for', () => {
  inTempDir((dir) => {
    withKeys(dir, (keys) => {
      assert.equal(keys.devices(), []);
      assertFails(() => keys.unlock({ device: 'ab' }), KeysError, 'KEYS_BAD_REQUEST', ['"pin"']);
      assertFails(() => keys.unlock({ device: 'ab', pin: '1234' }), KeysError, 'KEYS_UNKNOWN_DEVICE');
      assertFails(() => keys.lock({}), KeysError, 'KEYS_BAD_REQUEST', ['"device"']);
      assertFails(() => keys.lock({ device: 'ab' }), KeysError, 'KEYS_UNKNOWN_DEVICE');
    });
  });
});

test('a module that cannot be loaded is named in the error', () => {
  inTempDir((dir) => {
    assertFails(() => NodeKeys.open(dir, ['/nonexistent/libpkcs11.so']), KeysError, 'KEYS_MODULE_LOAD', ['/nonexistent/libpkcs11.so']);
    withKeys(dir, (keys) => {
      assertFails(() => keys.setModules([join(dir, KEYS_FILE)]), KeysError, 'KEYS_MODULE_LOAD', [join(dir, KEYS_FILE)]);
    });
  });
});

test.run();
