// Keys on a node's PKCS#11 device (docs/administration.md §4.1 `keys/devices`, `keys/unlock`,
// `keys`): the one device of a node's SoftHSM token unlocked, and a producer claim generated on it.
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../host-api/encoding/hex.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import type { Claim } from '../../host-api/types/index.js';
import type { Device, Key } from '../../runtime/keys/node-keys.js';
import { adminRequest } from './admin-requests.js';
import type { RunningNode } from './node-process.js';

/** Unlocks the node's one device with `pin`; returns its id. */
export async function unlockDevice(node: RunningNode, pin: string): Promise<string> {
  const devices = (await adminRequest(node, '/native/admin/keys/devices')).json() as Device[];
  assert.is(devices.length, 1, `one device on ${node.api}`);
  const id = devices[0]!.id;
  const unlocked = await adminRequest(node, '/native/admin/keys/unlock', { json: { device: id, pin } });
  assert.is(unlocked.status, 200, unlocked.text());
  return id;
}

/** A verify-sig key generated on the (unlocked) device, as a producer claim. */
export async function deviceClaim(node: RunningNode, device: string): Promise<Claim> {
  const generated = await adminRequest(node, '/native/admin/keys', { json: { service: 'verify-sig', device } });
  assert.is(generated.status, 200, generated.text());
  return { service: accountNumberFromName('verify-sig'), rawData: hexToBytes((generated.json() as Key).rawData) };
}
