import { accountNumberFromName } from '../../host-api/names/index.js';
import type { Claim } from '../../host-api/types/index.js';
import { KeysError } from './errors.js';
import type { Device, KeySource, Pkcs11Device } from './pkcs11-device.js';
import { Pkcs11Devices } from './pkcs11-devices.js';
import { parseAddKeyRequest, parseLockRequest, parseUnlockRequest } from './requests.js';
import type { Signer } from './signer.js';
import { SoftwareKeyStore } from './software-key-store.js';
import { GENERATED_KEY_CURVE, VERIFY_SIG, keyOf, requireVerifyService, type Key } from './verify-service.js';

export type { Device } from './pkcs11-device.js';
export type { AddKeyRequest, LockRequest, UnlockRequest } from './requests.js';
export type { Signer } from './signer.js';
export type { Key } from './verify-service.js';

// The keys a node holds, for the admin API (docs/administration.md §4.1 `keys`, `keys/devices`, `keys/unlock`,
// `keys/lock`) and for signing: keys in the node's directory, and keys on the unlocked devices
// of the configured PKCS#11 modules. Methods taking a request body accept the parsed JSON as
// is and check it; every refusal is a KeysError (see keysErrorHttpStatus).

const DIGEST_BYTES = 32;
const VERIFY_SIG_ACCOUNT = accountNumberFromName(VERIFY_SIG);

export class NodeKeys {
  private constructor(private readonly store: SoftwareKeyStore, private readonly pkcs11: Pkcs11Devices) {}

  /** The keys of node directory `dir`, and the devices of `pkcs11Modules` (module paths). */
  static open(dir: string, pkcs11Modules: readonly string[]): NodeKeys {
    const keys = new NodeKeys(SoftwareKeyStore.open(dir), new Pkcs11Devices());
    keys.setModules(pkcs11Modules);
    return keys;
  }

  /** Applies a new `pkcs11-modules`; on KEYS_MODULE_LOAD the previous modules stay. */
  setModules(paths: readonly string[]): void {
    this.pkcs11.setModules(paths);
  }

  /** GET keys: the node's software keys, then the keys on unlocked devices. */
  list(): Key[] {
    return [...this.store.list(), ...this.unlockedDevices().flatMap((device) => device.publicKeys().map(keyOf))];
  }

  /** POST keys `{service, rawData?, device?}`: imports or generates a key; returns its public key. */
  add(body: unknown): Key {
    const request = parseAddKeyRequest(body);
    if (request.device === undefined) return this.store.add(request.service, request.rawData);
    requireVerifyService(request.service);
    return keyOf(this.pkcs11.get(request.device).generateKey(GENERATED_KEY_CURVE));
  }

  /** GET keys/devices. */
  devices(): Device[] {
    return this.pkcs11.list().map((device) => device.describe());
  }

  /** POST keys/unlock `{device, pin}`. */
  unlock(body: unknown): void {
    const { device, pin } = parseUnlockRequest(body);
    this.pkcs11.get(device).unlock(pin);
  }

  /** POST keys/lock `{device}`. */
  lock(body: unknown): void {
    this.pkcs11.get(parseLockRequest(body).device).lock();
  }

  /** Signs with the held key whose DER public key is `publicKey`; KEYS_UNKNOWN_KEY when none. */
  signer(publicKey: Uint8Array): Signer {
    const signer = this.heldSigner(publicKey);
    if (!signer) throw new KeysError('KEYS_UNKNOWN_KEY', 'the node holds no key with this public key (or its device is locked)');
    return signer;
  }

  /** The signer for a claim (a producer's block-signing claim): a verify-sig claim of a held key. */
  claimSigner(claim: Claim): Signer | undefined {
    return claim.service === VERIFY_SIG_ACCOUNT ? this.heldSigner(claim.rawData) : undefined;
  }

  /** Ends every device session (which locks the devices) and unloads the modules. */
  close(): void {
    this.pkcs11.close();
  }

  /** Signs with the held key whose DER public key is `publicKey`; undefined when none. */
  private heldSigner(publicKey: Uint8Array): Signer | undefined {
    const sign = this.store.signer(publicKey) ?? this.deviceSigner(publicKey);
    return sign && ((digest) => {
      if (digest.length !== DIGEST_BYTES) throw new KeysError('KEYS_BAD_REQUEST', `a digest has ${DIGEST_BYTES} bytes, not ${digest.length}`);
      return sign(digest);
    });
  }

  private unlockedDevices(): Pkcs11Device[] {
    return this.pkcs11.list().filter((device) => device.unlocked);
  }

  /**
   * The first device holding the key among the keys each device listed last (no device call at
   * all, block after block); failing that, among the keys on the unlocked tokens present now.
   */
  private deviceSigner(publicKey: Uint8Array): Signer | undefined {
    return firstSigner(this.pkcs11.known(), publicKey, 'listed') ?? firstSigner(this.unlockedDevices(), publicKey, 'token');
  }
}

function firstSigner(devices: readonly Pkcs11Device[], publicKey: Uint8Array, source: KeySource): Signer | undefined {
  for (const device of devices) {
    const sign = device.signer(publicKey, source);
    if (sign) return sign;
  }
  return undefined;
}
