import { randomBytes } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import pkcs11js from 'pkcs11js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePublicKey } from '../../../../host-api/crypto/keys.js';
import { accountNumberFromName } from '../../../../host-api/names/index.js';
import { hexToBytes } from '../../../../host-api/encoding/hex.js';
import { KeysError } from '../../../../runtime/keys/errors.js';
import { NodeKeys, type Device, type Key } from '../../../../runtime/keys/node-keys.js';
import { Pkcs11Devices } from '../../../../runtime/keys/pkcs11-devices.js';
import { ecParams, publicKeyFromToken } from '../../../../runtime/keys/pkcs11-ec.js';
import { pkcs11ReturnValue } from '../../../../runtime/keys/pkcs11-errors.js';
import { keyOf } from '../../../../runtime/keys/verify-service.js';
import { assertFails } from '../../../lib/assert-error.js';
import { inTempDir } from '../../../lib/temp-dir.js';
import { SOFTHSM_MODULE, assertSignsFor, createSoftHsmToken } from './helpers.js';

// A real PKCS#11 device: a SoftHSM token made for each test in a temporary directory. Fails,
// rather than skips, without softhsm2 (`make test` installs it).

const SERVICE = 'verify-sig';
const LABEL = 'test';
const PIN = '1234';
const VERIFY_SIG_ACCOUNT = accountNumberFromName(SERVICE);

interface Fixture {
  readonly dir: string;
  readonly keys: NodeKeys;
  readonly device: Device;
}

/** A node directory that also holds the token store of a fresh token. */
function withToken(run: (dir: string) => void): void {
  inTempDir((dir) => {
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

/**
 * Another program using the token while the node does: a session of its own. It runs in this
 * process, where the module is initialized already and the node's login holds for every session.
 */
class OtherProgram {
  private readonly pkcs11 = new pkcs11js.PKCS11();
  private readonly session: Buffer;
  private readonly objects: Buffer[] = [];

  constructor() {
    this.pkcs11.load(SOFTHSM_MODULE);
    try {
      this.pkcs11.C_Initialize();
    } catch (err) {
      if (pkcs11ReturnValue(err) !== pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED) throw err;
    }
    this.session = this.pkcs11.C_OpenSession(this.pkcs11.C_GetSlotList(true)[0]!, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
  }

  /** A P-256 signing key pair on the token; its DER public key. */
  generateKey(): Key {
    const id = { type: pkcs11js.CKA_ID, value: randomBytes(16) };
    const token = { type: pkcs11js.CKA_TOKEN, value: true };
    const params = Buffer.from(ecParams('P-256'));
    const pair = this.pkcs11.C_GenerateKeyPair(this.session, { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
      [token, id, { type: pkcs11js.CKA_EC_PARAMS, value: params }, { type: pkcs11js.CKA_VERIFY, value: true }],
      [token, id, { type: pkcs11js.CKA_PRIVATE, value: true }, { type: pkcs11js.CKA_SIGN, value: true }]);
    this.objects.push(pair.publicKey, pair.privateKey);
    const [point] = this.pkcs11.C_GetAttributeValue(this.session, pair.publicKey, [{ type: pkcs11js.CKA_EC_POINT }]);
    return keyOf(publicKeyFromToken(params, point!.value!)!);
  }

  /** Deletes the key pairs it generated. */
  removeKeys(): void {
    for (const object of this.objects.splice(0)) this.pkcs11.C_DestroyObject(this.session, object);
  }

  close(): void {
    this.pkcs11.C_CloseSession(this.session);
    this.pkcs11.close();
  }
}

/**
 * Runs `run` counting the searches for token objects started by the PKCS#11 instances it
 * creates (pkcs11js copies each method onto an instance as it is made).
 */
function countingSearches(run: (searches: () => number) => void): void {
  const prototype = pkcs11js.PKCS11.prototype as unknown as { C_FindObjectsInit: (...args: unknown[]) => void };
  const search = prototype.C_FindObjectsInit;
  let count = 0;
  prototype.C_FindObjectsInit = function (this: unknown, ...args: unknown[]) {
    count++;
    return search.apply(this, args);
  };
  try {
    run(() => count);
  } finally {
    prototype.C_FindObjectsInit = search;
  }
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

test('a device key signs block after block without listing the token again; a key another program adds is found by listing it again', () => {
  countingSearches((searches) => withDevice(({ keys, device }) => {
    keys.unlock({ device: device.id, pin: PIN });
    const key = keys.add({ service: SERVICE, device: device.id });
    const claim = { service: VERIFY_SIG_ACCOUNT, rawData: hexToBytes(key.rawData) };
    const other = new OtherProgram();
    try {
      const before = searches();
      assertSignsFor(keys.claimSigner(claim)!, key);
      const afterFirst = searches();
      assert.ok(afterFirst > before, 'the first lookup after generating a key lists the keys');
      for (let block = 0; block < 5; block++) assertSignsFor(keys.claimSigner(claim)!, key);
      assert.is(searches(), afterFirst, 'later lookups use that listing');

      const added = other.generateKey();
      assertSignsFor(keys.signer(hexToBytes(added.rawData)), added);
      assert.ok(searches() > afterFirst, 'a key missing from the listing is looked for on the token');
      assert.ok(isListed(keys, added));
    } finally {
      other.close();
    }
  }));
});

test('a device key another program deleted fails to sign once, and is unknown from then on', () => {
  withDevice(({ keys, device }) => {
    keys.unlock({ device: device.id, pin: PIN });
    const other = new OtherProgram();
    try {
      const key = other.generateKey();
      const signer = keys.signer(hexToBytes(key.rawData));
      assertSignsFor(signer, key);
      other.removeKeys();
      assertFails(() => signer(new Uint8Array(32)), KeysError, 'KEYS_DEVICE_ERROR', [`'${LABEL}'`, 'C_SignInit']);
      assertFails(() => keys.signer(hexToBytes(key.rawData)), KeysError, 'KEYS_UNKNOWN_KEY');
      assert.not.ok(isListed(keys, key));
    } finally {
      other.close();
    }
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
      assertSignsFor(token!.signer(hexToBytes(key.rawData), 'token')!, key);
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
