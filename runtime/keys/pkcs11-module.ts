import pkcs11js from 'pkcs11js';
import { KeysError } from './errors.js';
import { onDevice } from './pkcs11-errors.js';

// A PKCS#11 module: the shared library a device vendor ships, loaded and initialized for this
// process. PKCS#11 allows one initialization per module per process, so one object owns it.

export type Pkcs11 = InstanceType<typeof pkcs11js.PKCS11>;

/** A slot that holds an initialized token, and that token's description. */
export interface Pkcs11Token {
  readonly slot: Buffer;
  readonly info: pkcs11js.TokenInfo;
}

export class Pkcs11Module {
  private constructor(readonly path: string, readonly pkcs11: Pkcs11) {}

  static load(path: string): Pkcs11Module {
    const pkcs11 = new pkcs11js.PKCS11();
    try {
      pkcs11.load(path);
    } catch (err) {
      throw new KeysError('KEYS_MODULE_LOAD', `cannot load the PKCS#11 module ${path}: ${(err as Error).message}`, { cause: err });
    }
    try {
      pkcs11.C_Initialize();
    } catch (err) {
      pkcs11.close();
      throw new KeysError('KEYS_MODULE_LOAD', `the PKCS#11 module ${path} failed to initialize: ${(err as Error).message}`, { cause: err });
    }
    return new Pkcs11Module(path, pkcs11);
  }

  /** The tokens present now; a slot with an uninitialized token cannot hold keys yet. */
  tokens(): Pkcs11Token[] {
    return onDevice(`PKCS#11 module ${this.path}`, () =>
      this.pkcs11.C_GetSlotList(true)
        .map((slot) => ({ slot, info: this.pkcs11.C_GetTokenInfo(slot) }))
        .filter((token) => (token.info.flags & pkcs11js.CKF_TOKEN_INITIALIZED) !== 0));
  }

  close(): void {
    try {
      this.pkcs11.C_Finalize();
    } finally {
      this.pkcs11.close();
    }
  }
}
