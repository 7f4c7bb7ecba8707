import { TsibaseError } from '../../host-api/errors.js';

export type KeysErrorCode =
  | 'KEYS_BAD_REQUEST'      // a malformed request: missing field, bad hex, not a private key
  | 'KEYS_UNKNOWN_SERVICE'  // the verify service is not one whose keys this node can hold
  | 'KEYS_UNKNOWN_DEVICE'   // no device has this id (or its token was removed)
  | 'KEYS_LOCKED'           // the device must be unlocked first
  | 'KEYS_BAD_PIN'          // the device refused the PIN (wrong, wrong length, or locked out)
  | 'KEYS_UNKNOWN_KEY'      // signing with a public key the node does not hold
  | 'KEYS_MODULE_LOAD'      // a configured PKCS#11 module could not be loaded; names the path
  | 'KEYS_DEVICE_ERROR'     // a PKCS#11 call failed for another reason; names the device and call
  | 'KEYS_BAD_FILE';        // the node's keys.json cannot be read back

/** A key or device operation was refused; the message says why. Nothing changed. */
export class KeysError extends TsibaseError {
  declare readonly code: KeysErrorCode;

  constructor(code: KeysErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * The HTTP status an admin endpoint answers a KeysError with. A refused PIN is 403: the request
 * was understood and the credential it carries was rejected (401 would call for a
 * WWW-Authenticate challenge, which a device PIN is not). Using a locked device is 409: the
 * request is fine but the device's state forbids it until it is unlocked.
 */
export function keysErrorHttpStatus(code: KeysErrorCode): number {
  switch (code) {
    case 'KEYS_BAD_REQUEST':
    case 'KEYS_UNKNOWN_SERVICE':
    case 'KEYS_MODULE_LOAD':
      return 400;
    case 'KEYS_BAD_PIN':
      return 403;
    case 'KEYS_UNKNOWN_DEVICE':
    case 'KEYS_UNKNOWN_KEY':
      return 404;
    case 'KEYS_LOCKED':
      return 409;
    case 'KEYS_DEVICE_ERROR':
    case 'KEYS_BAD_FILE':
      return 500;
  }
}
