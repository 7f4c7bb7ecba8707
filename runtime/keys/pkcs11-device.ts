import { randomBytes } from 'node:crypto';
import pkcs11js from 'pkcs11js';
import type { KeyCurve } from '../../host-api/crypto/keys.js';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import { KeysError } from './errors.js';
import { curveOfEcParams, ecParams, lowS, publicKeyFromToken } from './pkcs11-ec.js';
import { deviceError, onDevice, pkcs11ReturnValue } from './pkcs11-errors.js';
import type { Pkcs11, Pkcs11Module } from './pkcs11-module.js';
import type { Signer } from './signer.js';

// One token of a PKCS#11 module: a cryptographic device that holds keys which never leave it.
// The node unlocks it by logging in a session with the user PIN; it stays unlocked while that
// session lives. PKCS#11 calls are synchronous: a session runs one operation at a time
// (C_SignInit then C_Sign), and a blocking call keeps each operation whole.

/** A device as the admin API shows it. */
export interface Device {
  readonly name: string;
  readonly id: string;
  readonly unlocked: boolean;
}

/** A key pair on the token that the node can sign with. */
interface TokenKey {
  readonly publicKey: Uint8Array;
  readonly curve: KeyCurve;
  readonly privateKey: Buffer;
}

const REFUSED_PIN = new Set([
  pkcs11js.CKR_PIN_INCORRECT,
  pkcs11js.CKR_PIN_INVALID,
  pkcs11js.CKR_PIN_LEN_RANGE,
  pkcs11js.CKR_PIN_EXPIRED,
  pkcs11js.CKR_PIN_LOCKED,
]);
/** Marks the keys the node generated, for people looking at the token with other tools. */
const KEY_LABEL = 'tsibase';
const KEY_ID_BYTES = 16;
const FIND_BATCH = 64;
const SIGNATURE_BUFFER_BYTES = 128;

/** Where a signer lookup takes the token's keys from. */
export type KeySource = 'listed' | 'token';

export class Pkcs11Device {
  /** Present exactly while the device is unlocked. */
  private session: Buffer | undefined;
  /**
   * The session's signing keys as last listed (listing costs several calls per key, and block
   * production looks its key up every block); dropped with the session, when the node adds a
   * key, and when signing fails (the key may be gone).
   */
  private listed: TokenKey[] | undefined;

  constructor(readonly id: string, readonly name: string, readonly module: Pkcs11Module, private readonly slot: Buffer) {}

  get unlocked(): boolean {
    return this.session !== undefined;
  }

  describe(): Device {
    return { name: this.name, id: this.id, unlocked: this.unlocked };
  }

  /** Logs in with the user PIN; unlocking an unlocked device changes nothing. */
  unlock(pin: string): void {
    if (this.session) return;
    const session = this.call(() => this.pkcs11.C_OpenSession(this.slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION));
    try {
      this.pkcs11.C_Login(session, pkcs11js.CKU_USER, pin);
    } catch (err) {
      this.closeSession(session);
      const refused = pkcs11ReturnValue(err);
      if (refused !== undefined && REFUSED_PIN.has(refused)) {
        throw new KeysError('KEYS_BAD_PIN', `${this.label}: the device refused the PIN (${(err as Error).message})`, { cause: err });
      }
      throw deviceError(this.label, err);
    }
    this.session = session;
  }

  /** Logs out; locking a locked device changes nothing. */
  lock(): void {
    const session = this.session;
    if (!session) return;
    this.session = undefined;
    this.listed = undefined;
    try {
      this.call(() => this.pkcs11.C_Logout(session));
    } finally {
      this.closeSession(session);
    }
  }

  /** Drops the session without logging out, for a token that is gone or a module being unloaded. */
  forget(): void {
    if (this.session) this.closeSession(this.session);
    this.session = undefined;
    this.listed = undefined;
  }

  /** The DER public keys of the EC key pairs on the token the node can sign with, listed now. */
  publicKeys(): Uint8Array[] {
    return this.listKeys().map((key) => key.publicKey);
  }

  /** Generates a key pair that stays on the token; returns its DER public key. */
  generateKey(curve: KeyCurve): Uint8Array {
    const session = this.unlockedSession();
    this.listed = undefined;
    const id = randomBytes(KEY_ID_BYTES);
    const shared = [
      { type: pkcs11js.CKA_TOKEN, value: true },
      { type: pkcs11js.CKA_ID, value: id },
      { type: pkcs11js.CKA_LABEL, value: KEY_LABEL },
    ];
    const pair = this.call(() => this.pkcs11.C_GenerateKeyPair(session, { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
      [...shared, { type: pkcs11js.CKA_EC_PARAMS, value: Buffer.from(ecParams(curve)) }, { type: pkcs11js.CKA_VERIFY, value: true }],
      [...shared, { type: pkcs11js.CKA_PRIVATE, value: true }, { type: pkcs11js.CKA_SENSITIVE, value: true },
        { type: pkcs11js.CKA_EXTRACTABLE, value: false }, { type: pkcs11js.CKA_SIGN, value: true }]));
    const publicKey = publicKeyFromToken(ecParams(curve), this.attribute(session, pair.publicKey, pkcs11js.CKA_EC_POINT));
    if (!publicKey) {
      this.call(() => [pair.publicKey, pair.privateKey].forEach((object) => this.pkcs11.C_DestroyObject(session, object)));
      throw new KeysError('KEYS_DEVICE_ERROR', `${this.label}: the generated key's CKA_EC_POINT is not an uncompressed ${curve} point`);
    }
    return publicKey;
  }

  /**
   * Signs on the token with the key whose DER public key is `publicKey`; undefined when the
   * keys looked at lack it: with `listed` those of the last listing (no device call; none
   * before the first), with `token` those on the token now (a new listing).
   */
  signer(publicKey: Uint8Array, source: KeySource): Signer | undefined {
    const keys = source === 'listed' ? this.listed ?? [] : this.listKeys();
    const key = keys.find((candidate) => equalBytes(candidate.publicKey, publicKey));
    return key && ((digest) => {
      const session = this.unlockedSession();
      let signature: Buffer;
      try {
        signature = this.call(() => {
          this.pkcs11.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, key.privateKey);
          return this.pkcs11.C_Sign(session, Buffer.from(digest), Buffer.alloc(SIGNATURE_BUFFER_BYTES));
        });
      } catch (err) {
        this.listed = undefined;
        throw err;
      }
      return lowS(key.curve, signature);
    });
  }

  private get pkcs11(): Pkcs11 {
    return this.module.pkcs11;
  }

  private get label(): string {
    return `device '${this.name}' (${this.module.path})`;
  }

  private call<T>(call: () => T): T {
    return onDevice(this.label, call);
  }

  private unlockedSession(): Buffer {
    if (!this.session) throw new KeysError('KEYS_LOCKED', `${this.label} is locked; unlock it first`);
    return this.session;
  }

  /** Closing may fail when the token is gone; the session is unusable either way. */
  private closeSession(session: Buffer): void {
    try {
      this.pkcs11.C_CloseSession(session);
    } catch {
      // nothing left to release
    }
  }

  private attribute(session: Buffer, object: Buffer, type: number): Buffer {
    return this.call(() => this.pkcs11.C_GetAttributeValue(session, object, [{ type }])[0]!.value);
  }

  /**
   * EC signing keys paired with their public key by CKA_ID (a private key object does not carry
   * its point); keys on other curves, or without a public key object, are left out. They become
   * the device's listing.
   */
  private listKeys(): TokenKey[] {
    const session = this.unlockedSession();
    const keys: TokenKey[] = [];
    for (const privateKey of this.find(session, [
      { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
      { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
      { type: pkcs11js.CKA_SIGN, value: true },
    ])) {
      const [id, params] = this.call(() => this.pkcs11.C_GetAttributeValue(session, privateKey, [{ type: pkcs11js.CKA_ID }, { type: pkcs11js.CKA_EC_PARAMS }]))
        .map((attribute) => attribute.value);
      const curve = curveOfEcParams(params!);
      if (!curve) continue;
      const publicKey = this.find(session, [
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
        { type: pkcs11js.CKA_ID, value: id! },
        { type: pkcs11js.CKA_EC_PARAMS, value: params! },
      ])[0];
      const der = publicKey && publicKeyFromToken(params!, this.attribute(session, publicKey, pkcs11js.CKA_EC_POINT));
      if (der) keys.push({ publicKey: der, curve, privateKey });
    }
    this.listed = keys;
    return keys;
  }

  private find(session: Buffer, template: pkcs11js.Template): Buffer[] {
    return this.call(() => {
      this.pkcs11.C_FindObjectsInit(session, template);
      try {
        const found: Buffer[] = [];
        for (let batch = this.pkcs11.C_FindObjects(session, FIND_BATCH); batch.length > 0; batch = this.pkcs11.C_FindObjects(session, FIND_BATCH)) {
          found.push(...batch);
        }
        return found;
      } finally {
        this.pkcs11.C_FindObjectsFinal(session);
      }
    });
  }
}
