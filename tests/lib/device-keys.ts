// Keys on a node's PKCS#11 device (docs/administration.md §4.1 `keys/devices`, `keys/unlock`,
// `keys`): the one device of a node's SoftHSM token unlocked, a producer claim generated on it,
// and a network of producers each with its own token.
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../host-api/encoding/hex.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import type { Claim } from '../../host-api/types/index.js';
import type { Device, Key } from '../../runtime/keys/node-keys.js';
import { adminRequest } from './admin-requests.js';
import { peersOf, waitUntil } from './node-network.js';
import { configuredNodeDir, type RunningNode } from './node-process.js';
import { startProducer, urlOf, type ProducerNode } from './producer-network.js';
import { SOFTHSM_MODULE, softHsmToken } from './softhsm.js';

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

/**
 * Starts a producer node per name in `dir`, each with its own SoftHSM token (user PIN `pin`), the
 * first booted from `bundle` and the others linked to those before them; once fully linked, each
 * device is unlocked and a claim generated on it. Returns the nodes and their claims, in order.
 */
export async function startDeviceProducers(
  dir: string, names: readonly string[], bundle: string, blockMs: string, pin: string,
): Promise<{ nodes: ProducerNode[]; claims: Claim[] }> {
  const nodes: ProducerNode[] = [];
  for (const [i, name] of names.entries()) {
    // A token store per node: each process is its own device's only user.
    const conf = softHsmToken(join(dir, `${name}-hsm`), `${name}-token`, pin, '5678');
    const nodeDir = configuredNodeDir(dir, name, { 'pkcs11-modules': [SOFTHSM_MODULE] });
    const links = nodes.flatMap((n) => ['--peer', urlOf(n)]);
    nodes.push(await startProducer(nodeDir, ['-p', name, ...(i === 0 ? ['--boot', bundle] : links)], blockMs, { SOFTHSM2_CONF: conf }));
  }
  await waitUntil(`${names.length - 1} links each`, async () => (await Promise.all(nodes.map(peersOf))).every((p) => p.length === names.length - 1));
  const claims: Claim[] = [];
  for (const node of nodes) claims.push(await deviceClaim(node, await unlockDevice(node, pin)));
  return { nodes, claims };
}
