import { p256 } from '@noble/curves/nist.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePublicKey } from '../../../../host-api/crypto/keys.js';
import { hexToBytes } from '../../../../host-api/encoding/hex.js';
import { KeysError } from '../../../../runtime/keys/errors.js';
import { NodeKeys, type Device, type Key } from '../../../../runtime/keys/node-keys.js';
import { Pkcs11Devices } from '../../../../runtime/keys/pkcs11-devices.js';
import { keyOf } from '../../../../runtime/keys/verify-service.js';
import { assertFails } from '../../../lib/assert-error.js';
import { SOFTHSM_MODULE, assertSignsFor, createSoftHsmToken, withTempDir } from './helpers.js';

// A real PKCS#11 device: a SoftHSM token made for each test in a temporary directory. Fails,
// rather than skips, without softhsm2 (`make test` installs it).

const SERVICE = 'verify-sig';
const LABEL = 'test';
const PIN = '1234';

interface Fixture {
  readonly dir: string;
  readonly keys: NodeKeys;
  readonly device: Device;
}

/** A node directory that also holds the token store of a fresh token. */
function withToken(run: (dir: string) => void): void {
  withTempDir((dir) => {
    createSoftHsmToken(dir, LABEL, PIN, '5678');
    run(dir);
  });
}

function withDevice(run: (fixture: Fixture) => void): void {
  withToken((dir) => {
    const keys = NodeKeys.open(dir, [SOFTHSM_MODULE]);
    try {
      const devices = keys.devices();
      assert.is(devices.length, 1, 'one initialized token');
      run({ dir, keys, device: devices[0]! });
    } finally {
      keys.close();
    }
  });
}

function isListed(keys: NodeKeys, key: Key): boolean {
  return keys.list().some((listed) => listed.rawData === key.rawData);
}

test('a token is a device named by its label, locked until unlocked with its PIN', () => {
  withDevice(({ keys, device }) => {
    assert.equal(device, { name: LABEL, id: device.id, unlocked: false });
    assert.match(device.id, /^[0-9a-f]{32}$/);
    assertFails(() => keys.unlock({ device: device.id, pin: '0000' }), KeysError, 'KEYS_BAD_PIN', [`'${LABEL}'`, 'CKR_PIN_INCORRECT']);
    assert.equal(keys.devices(), [device]);
    keys.unlock({ device: device.id, pin: PIN });
    assert.equal(keys.devices(), [{ ...device, unlocked: true }]);
    keys.unlock({ device: device.id, pin: PIN });
    keys.lock({ device: device.id });
    keys.lock({ device: device.id });
    assert.equal(keys.devices(), [device]);
  });
});

test('a key generated on an unlocked device is listed and signs there, until the device is locked', () => {
  withDevice(({ keys, device }) => {
    assertFails(() => keys.add({ service: SERVICE, device: device.id }), KeysError, 'KEYS_LOCKED', [`'${LABEL}'`]);
    keys.unlock({ device: device.id, pin: PIN });
    assertFails(() => keys.add({ service: 'verify-other', device: device.id }), KeysError, 'KEYS_UNKNOWN_SERVICE');
    const key = keys.add({ service: SERVICE, device: device.id });
    assert.is(key.service, SERVICE);
    assert.is(parsePublicKey(hexToBytes(key.rawData)).curve, 'P-256');
    assert.equal(keys.list(), [key]);
    const signer = keys.signer(hexToBytes(key.rawData));
    // The token gives high S about half the time; the node hands out low S, as software keys sign.
    for (let i = 0; i < 20; i++) assert.not.ok(p256.Signature.fromBytes(assertSignsFor(signer, key)).hasHighS());

    keys.lock({ device: device.id });
    assert.not.ok(isListed(keys, key));
    assertFails(() => signer(new Uint8Array(32)), KeysError, 'KEYS_LOCKED');
    assertFails(() => keys.signer(hexToBytes(key.rawData)), KeysError, 'KEYS_UNKNOWN_KEY');
    assertFails(() => keys.add({ service: SERVICE, device: device.id }), KeysError, 'KEYS_LOCKED');
  });
});

test('device keys stay on the token, not in the node directory, and the device keeps its id', () => {
  withDevice(({ dir, keys, device }) => {
    keys.unlock({ device: device.id, pin: PIN });
    const software = keys.add({ service: SERVICE });
    const onDevice = keys.add({ service: SERVICE, device: device.id });
    assert.equal(keys.list(), [software, onDevice]);
    keys.close();

    const reopened = NodeKeys.open(dir, [SOFTHSM_MODULE]);
    try {
      assert.equal(reopened.devices(), [device], 'same id, locked again');
      assert.equal(reopened.list(), [software]);
      reopened.unlock({ device: device.id, pin: PIN });
      assert.equal(reopened.list(), [software, onDevice]);
      assertSignsFor(reopened.signer(hexToBytes(onDevice.rawData)), onDevice);
    } finally {
      reopened.close();
    }
  });
});

test('the token also generates and signs with secp256k1 keys', () => {
  withToken(() => {
    const devices = new Pkcs11Devices();
    devices.setModules([SOFTHSM_MODULE]);
    try {
      const [token] = devices.list();
      token!.unlock(PIN);
      const key = keyOf(token!.generateKey('secp256k1'));
      assert.is(parsePublicKey(hexToBytes(key.rawData)).curve, 'secp256k1');
      assertSignsFor(token!.signer(hexToBytes(key.rawData))!, key);
    } finally {
      devices.close();
    }
  });
});

test('changing the modules adds and removes their devices; a module that fails to load changes nothing', () => {
  withDevice(({ keys, device }) => {
    keys.unlock({ device: device.id, pin: PIN });
    assertFails(() => keys.setModules([SOFTHSM_MODULE, '/nonexistent/libpkcs11.so']), KeysError, 'KEYS_MODULE_LOAD', ['/nonexistent/libpkcs11.so']);
    assert.equal(keys.devices(), [{ ...device, unlocked: true }]);
    keys.setModules([]);
    assert.equal(keys.devices(), []);
    assertFails(() => keys.unlock({ device: device.id, pin: PIN }), KeysError, 'KEYS_UNKNOWN_DEVICE');
    keys.setModules([SOFTHSM_MODULE]);
    assert.equal(keys.devices(), [device]);
  });
});

test.run();
