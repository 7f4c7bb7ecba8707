import pkcs11js from 'pkcs11js';
import { KeysError } from './errors.js';

// pkcs11js throws a Pkcs11Error whose message is the CKR_ name and whose code is its value.

/** The CKR_ value a PKCS#11 call failed with; undefined for other errors. */
export function pkcs11ReturnValue(err: unknown): number | undefined {
  return err instanceof pkcs11js.Pkcs11Error ? err.code : undefined;
}

export function deviceError(device: string, err: unknown): KeysError {
  const detail = err instanceof pkcs11js.Pkcs11Error && err.method ? `${err.method} returned ${err.message}` : (err as Error).message;
  return new KeysError('KEYS_DEVICE_ERROR', `${device}: ${detail}`, { cause: err });
}

/** Runs a PKCS#11 call, turning its failure into KEYS_DEVICE_ERROR naming `device`. */
export function onDevice<T>(device: string, call: () => T): T {
  try {
    return call();
  } catch (err) {
    throw deviceError(device, err);
  }
}
