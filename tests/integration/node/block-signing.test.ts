// docs/chain.md §2 block signatures on a real node: once the producer's consensus entry carries a
// verify-sig claim, each block it produces is signed with the node's key for that claim, over
// sha256(00 CE A8 42 ‖ block id), and the signature is kept in db 7. Without the key the node
// stops producing and says why; importing the key through the admin API resumes production.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  CORE_SCHEMA, blockId, bytesToHex, compileSchema, generateKeyPair, hexToBytes, privateKeyToPkcs8, verifyDigest,
} from '../../../host-api/index.js';
import { readBlockSignature } from '../../../runtime/chain/block-signing.js';
import { readBlock } from '../../../runtime/chain/block-log.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { sha256 } from '../../../runtime/crypto/sha256.js';
import { LmdbStore } from '../../../runtime/db/lmdb-store.js';
import { adminRequest } from '../../lib/admin-requests.js';
import { headBlockNum, waitForBlocks } from '../../lib/chain-head.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';

const SET_PRODUCERS = compileSchema(CORE_SCHEMA).typeOf({ Object: { prods: { List: 'Producer' } } });

/** docs/chain.md §2: what a block's signature signs, sha256(00 CE A8 42 ‖ block id). */
const signedDigest = (id: Uint8Array) => sha256(Uint8Array.from([0x00, 0xce, 0xa8, 0x42, ...id]));

/** Makes `publicKey` (DER) the claim prod's blocks are signed for, once the change is irreversible. */
async function requireSignedBlocks(node: RunningNode, publicKey: Uint8Array): Promise<void> {
  await new ChainClient(node.api).push([{
    sender: 'producers', service: 'producers', method: 'setProducers',
    rawData: SET_PRODUCERS.pack({ prods: [{ name: 'prod', auth: { service: 'verify-sig', rawData: publicKey } }] }),
  }], { waitFor: 'applied' });
}

test('blocks are signed with the held key of the producer\'s claim; a missing key stops production until it is imported', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-block-signing-'));
  let node: RunningNode | undefined = await startBootedNode(dir);
  const client = new ChainClient(node.api);
  try {
    // Blocks before the claim are unsigned.
    const unsignedHead = await waitForBlocks(client, 0, 3);

    // A key the node does not hold: production stops once the change ends its joint consensus
    // (docs/p2p.md §6.1): the block holding it and the next are still made under the old claim.
    const key = generateKeyPair();
    await requireSignedBlocks(node, key.publicKey);
    const stalledAt = await headBlockNum(client);
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.ok(await headBlockNum(client) <= stalledAt + 2, 'no block without the key');
    const unapplied = client.push([{ sender: 'root', service: 'accounts', method: 'exists', rawData: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0) }], { waitFor: 'applied' });
    assert.match(await rejectionMessage(unapplied, 'a transaction was applied without a block to apply it to'), "this node holds no key to sign the blocks of producer 'prod'");

    // Importing the key through the admin API resumes production within a slot or two.
    const imported = await adminRequest(node, '/native/admin/keys', { json: { service: 'verify-sig', rawData: bytesToHex(privateKeyToPkcs8(key)) } });
    assert.is(imported.status, 200, imported.text());
    const resumedHead = await waitForBlocks(client, await headBlockNum(client), 3);

    // A key the node generates works the same way.
    const generated = await adminRequest(node, '/native/admin/keys', { json: { service: 'verify-sig' } });
    const generatedKey = hexToBytes((generated.json() as { rawData: string }).rawData);
    await requireSignedBlocks(node, generatedKey);
    const finalHead = await waitForBlocks(client, await headBlockNum(client), 3);

    await node.stop();
    node = undefined;
    const store = LmdbStore.open(join(dir, 'node', 'db'));
    try {
      for (let n = 3; n <= unsignedHead; n++) assert.is(readBlockSignature(store, n), undefined, `block ${n} is unsigned`);
      const signedBy = (n: number, publicKey: Uint8Array) => {
        const block = readBlock(store, n)!;
        const signature = readBlockSignature(store, n);
        assert.ok(signature, `block ${n} has a signature`);
        return verifyDigest(publicKey, signedDigest(blockId(block.header)), signature!);
      };
      let signedWithImported = 0;
      for (let n = stalledAt + 1; n <= resumedHead; n++) if (readBlockSignature(store, n)) signedWithImported += signedBy(n, key.publicKey) ? 1 : 0;
      assert.ok(signedWithImported >= 2, `blocks after the import are signed with the imported key (${signedWithImported})`);
      assert.ok(signedBy(finalHead, generatedKey), 'the newest block is signed with the generated key');
      assert.not.ok(signedBy(finalHead, key.publicKey), 'and not with the other one');
    } finally {
      await store.close();
    }
  } finally {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
