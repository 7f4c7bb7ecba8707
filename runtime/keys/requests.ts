import { bytesToHex } from '../../host-api/encoding/hex.js';
import { privateKeyToPkcs8, type KeyPair } from '../../host-api/crypto/keys.js';
import { KeysError } from './errors.js';
import { VERIFY_SIG } from './verify-service.js';

// The JSON bodies of the key admin endpoints (docs/administration.md §4.1), checked field by field since they
// arrive from HTTP as any JSON value. Fields not listed are ignored.

export interface AddKeyRequest {
  /** The verify service. */
  readonly service: string;
  /** Hex of private key information; missing: generate a key. */
  readonly rawData?: string;
  /** Id of the unlocked device to generate the key on; missing: the node's software store. */
  readonly device?: string;
}

/** The request that imports `pair` as a verify-sig key (a block key, for instance). */
export function importKeyRequest(pair: KeyPair): AddKeyRequest {
  return { service: VERIFY_SIG, rawData: bytesToHex(privateKeyToPkcs8(pair)) };
}

export interface UnlockRequest {
  readonly device: string;
  readonly pin: string;
}

export interface LockRequest {
  readonly device: string;
}

function fields(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new KeysError('KEYS_BAD_REQUEST', 'the request body must be a JSON object');
  return body as Record<string, unknown>;
}

function requiredString(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string') throw new KeysError('KEYS_BAD_REQUEST', `"${name}" must be a string`);
  return value;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  return body[name] === undefined ? undefined : requiredString(body, name);
}

export function parseAddKeyRequest(body: unknown): AddKeyRequest {
  const f = fields(body);
  const request = { service: requiredString(f, 'service'), rawData: optionalString(f, 'rawData'), device: optionalString(f, 'device') };
  // A device generates its keys; importing a private key into one is not offered.
  if (request.rawData !== undefined && request.device !== undefined) {
    throw new KeysError('KEYS_BAD_REQUEST', '"rawData" and "device" exclude each other: a device only holds keys it generates');
  }
  return request;
}

export function parseUnlockRequest(body: unknown): UnlockRequest {
  const f = fields(body);
  return { device: requiredString(f, 'device'), pin: requiredString(f, 'pin') };
}

export function parseLockRequest(body: unknown): LockRequest {
  return { device: requiredString(fields(body), 'device') };
}
