// BFT producers whose claims are keys on PKCS#11 devices (SoftHSM tokens, one per node), with real
// node processes (docs/p2p.md §5.1, §5.2): four producers sign their blocks and BFT messages on
// their devices and blocks become irreversible. With two of them stopped no block is made: no
// term can be ready without three view changes. Restarted with their devices locked, the two can
// sign no view change, so still no block is made while they try again (psibase's sync-term retry);
// once `POST /native/admin/keys/unlock` unlocks them they sign it at once, and blocks resume and
// become irreversible. A set whose fourth key no node holds still makes blocks irreversible with
// the other three (a quorum of 3 of 4), and the node of the fourth producer follows them.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '../../../host-api/encoding/hex.js';
import { accountNumberFromName } from '../../../host-api/names/index.js';
import type { Claim } from '../../../host-api/types/index.js';
import { deviceClaim, unlockDevice } from '../../lib/device-keys.js';
import { peersOf, waitUntil } from '../../lib/node-network.js';
import { configuredNodeDir } from '../../lib/node-process.js';
import {
  clientOf, committedPast, headerOf, restartProducer, setConsensus, startProducer, urlOf, type HeadHeader, type ProducerNode,
} from '../../lib/producer-network.js';
import { SOFTHSM_MODULE, softHsmToken } from '../../lib/softhsm.js';
import { builtBundle } from '../../lib/test-bundle.js';

const BLOCK_MS = '300';
const NAMES = ['prod', 'bprod', 'cprod', 'dprod'];
const PIN = '1234';
/** What a producer whose key is locked away logs when it would sign its view change. */
const UNSIGNED_VIEW = /ViewChangeMessage not sent: this node holds no key for its producer claim/g;
/** The same for any of its BFT messages. */
const UNSIGNED = /Message not sent: this node holds no key for its producer claim/g;
/** The terms a node entered and announced a view change for (docs/p2p.md §5.2). */
const ENTERED_TERM = /(?:View change: term|Active BFT producer in term) (\d+)/g;

interface Context {
  dir: string;
  nodes: ProducerNode[];
  claims: Claim[];
  /** The latest term the two stopped producers were in. */
  stoppedTerm: number;
  /** The best head while the two were locked. */
  stalled: HeadHeader;
}
const bft = suite<Context>('BFT producers with keys on PKCS#11 devices');

const count = (node: ProducerNode, pattern: RegExp) => node.output().match(pattern)?.length ?? 0;

/** The latest term the node entered, as its log says. */
function enteredTerm(node: ProducerNode): number {
  return Math.max(-1, ...[...node.output().matchAll(ENTERED_TERM)].map((m) => Number(m[1])));
}

/** The producers in force on the node, with the claim data of each, once no change is pending. */
async function producerClaims(node: ProducerNode): Promise<string | undefined> {
  const { jointStart, producers } = await clientOf(node).graphql('producers', '{ jointStart producers { name auth { rawData } } }') as
    { jointStart: number | null; producers: { name: string; auth: { rawData: string } }[] };
  return jointStart === null ? producers.map((p) => `${p.name}:${p.auth.rawData.toLowerCase()}`).join() : undefined;
}

async function waitForClaims(nodes: readonly ProducerNode[], names: readonly string[], claims: readonly Claim[]): Promise<void> {
  const expected = names.map((name, i) => `${name}:${bytesToHex(claims[i]!.rawData).toLowerCase()}`).join();
  for (const node of nodes) await waitUntil(`the new producer claims in force on ${node.api}`, async () => (await producerClaims(node)) === expected, 40_000);
}

bft.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-bft-pkcs11-'));
  const bundle = join(ctx.dir, 'test.bundle');
  // The services `make services` built (make test builds them first): no compile in the test.
  writeFileSync(bundle, await builtBundle());
  ctx.nodes = [];
  for (const [i, name] of NAMES.entries()) {
    // A token store per node: each process is its own device's only user.
    const conf = softHsmToken(join(ctx.dir, `${name}-hsm`), `${name}-token`, PIN, '5678');
    const dir = configuredNodeDir(ctx.dir, name, { 'pkcs11-modules': [SOFTHSM_MODULE] });
    const links = ctx.nodes.flatMap((n) => ['--peer', urlOf(n)]);
    ctx.nodes.push(await startProducer(dir, ['-p', name, ...(i === 0 ? ['--boot', bundle] : links)], BLOCK_MS, { SOFTHSM2_CONF: conf }));
  }
  await waitUntil('four links each', async () => (await Promise.all(ctx.nodes.map(peersOf))).every((p) => p.length === 3));
  ctx.claims = [];
  for (const node of ctx.nodes) ctx.claims.push(await deviceClaim(node, await unlockDevice(node, PIN)));
  await setConsensus(ctx.nodes[0]!, 'BftConsensus', NAMES, ctx.claims);
  await waitForClaims(ctx.nodes, NAMES, ctx.claims);
});

bft.after(async (ctx) => {
  await Promise.all(ctx.nodes.map((n) => n.stop()));
  rmSync(ctx.dir, { recursive: true, force: true });
});

bft('claims on the devices: BFT signs with them and blocks become irreversible', async ({ nodes }) => {
  const inForce = await headerOf(nodes[0]!);
  for (const node of nodes) await committedPast(node, inForce.blockNum, `irreversible past block ${inForce.blockNum} on ${node.api}`);
  for (const node of nodes) assert.is(count(node, UNSIGNED_VIEW), 0, `${node.api} signed every view change`);
});

bft('two producers stopped: the other two move on to a term that cannot be ready', async (ctx) => {
  const [a, b, c, d] = ctx.nodes as [ProducerNode, ProducerNode, ProducerNode, ProducerNode];
  await Promise.all([c.stop(), d.stop()]);
  // c and d signed no view change for a later term than these: a term past them needs three
  // view changes and only a and b can sign theirs, so no block of it can be made.
  ctx.stoppedTerm = Math.max(enteredTerm(c), enteredTerm(d));
  await waitUntil('a and b past the terms of c and d', async () => [a, b].every((node) => enteredTerm(node) > ctx.stoppedTerm), 40_000);
});

bft('restarted with their devices locked, the two sign no view change and no block is made', async (ctx) => {
  for (const i of [2, 3]) ctx.nodes[i] = await restartProducer(ctx.nodes[i]!);
  // Each fails to sign, tries again after the retry time (30 block intervals, three view-change
  // timeouts) and fails again.
  for (const node of ctx.nodes.slice(2)) {
    await waitUntil(`${node.api} retried its view change`, async () => count(node, /Retry: signing the view change of term/g) > 0 && count(node, UNSIGNED_VIEW) >= 2, 40_000);
  }
  // Blocks of earlier terms may still arrive from c and d (made just before they stopped).
  const heads = await Promise.all(ctx.nodes.map(headerOf));
  for (const [i, head] of heads.entries()) assert.ok(head.term <= ctx.stoppedTerm, `node ${i}: no block of a term after the stop (head ${head.blockNum} of term ${head.term})`);
  ctx.stalled = heads.reduce((x, y) => (y.blockNum > x.blockNum ? y : x));
});

bft('unlocked, they sign their view changes at once: blocks resume and become irreversible', async (ctx) => {
  for (const node of ctx.nodes.slice(2)) {
    await unlockDevice(node, PIN);
    await waitUntil(`${node.api} signs its view change on the unlock`, async () => /Keys changed: signing the view change of term/.test(node.output()));
  }
  for (const node of ctx.nodes) {
    const head = await committedPast(node, ctx.stalled.blockNum, `${node.api} irreversible past block ${ctx.stalled.blockNum}`);
    assert.ok(head.term > ctx.stoppedTerm, `blocks of a new term (${head.term})`);
  }
});

bft('no node holds the fourth key: the other three make blocks irreversible and the fourth node follows', async (ctx) => {
  // A key made here and kept nowhere: dprod's node cannot sign its blocks or BFT messages.
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1', publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'der' } });
  const claims = [...ctx.claims.slice(0, 3), { service: accountNumberFromName('verify-sig'), rawData: new Uint8Array(publicKey) }];
  const fourth = ctx.nodes[3]!;
  const unsignedBefore = count(fourth, UNSIGNED);
  await setConsensus(ctx.nodes[0]!, 'BftConsensus', NAMES, claims);
  await waitForClaims(ctx.nodes, NAMES, claims);
  const inForce = await headerOf(ctx.nodes[0]!);
  try {
    for (const node of ctx.nodes) await committedPast(node, inForce.blockNum, `${node.api} irreversible past block ${inForce.blockNum}`);
  } catch (e) {
    for (const node of ctx.nodes) { console.log('=====', node.dir, node.api, JSON.stringify(await headerOf(node).catch(() => null))); console.log(node.output().split('\n').slice(-80).join('\n')); }
    throw e;
  }
  await waitUntil('the fourth node fails to sign its BFT messages', async () => count(fourth, UNSIGNED) > unsignedBefore);
});

bft.run();
