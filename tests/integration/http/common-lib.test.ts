// The default common files on a real node: served under /common/ with their content type, and
// common-lib.js (the browser module, run here on Node's fetch and WebCrypto) building, signing
// and pushing transactions the chain accepts.
import { lookup as dnsLookup } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, setGlobalDispatcher } from 'undici';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemAction, bytesToHex } from '../../../host-api/index.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { startBootedNode } from '../../lib/booted-node.js';
import type { RunningNode } from '../../lib/node-process.js';
import { ROOT } from '../../unit/services-wasm/program.js';

const FILES = join(ROOT, 'services-wasm', 'common-api', 'files', 'common');

interface CommonLib {
  generateKeyPair(): Promise<{ privateKey: string; publicKey: string }>;
  publicKeyOf(pem: string): Promise<string>;
  hexToUint8Array(hex: string): Uint8Array;
  taposExpiringIn(baseUrl: string, seconds?: number): Promise<unknown>;
  signAndPushTransaction(baseUrl: string, transaction: unknown, keys?: string[]): Promise<{ error: string | null }>;
}

interface Ctx { dir: string; node: RunningNode; lib: CommonLib }
const test = suite<Ctx>('common files and common-lib.js');

test.before(async (ctx) => {
  // fetch (as a browser would) reaches *.localhost on the loopback address.
  setGlobalDispatcher(new Agent({
    connect: {
      lookup: ((host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (!host.endsWith('localhost')) return dnsLookup(host, options as never, cb as never);
        return options.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
      }) as never,
    },
  }));
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-common-lib-'));
  ctx.node = await startBootedNode(ctx.dir);
  ctx.lib = (await import(pathToFileURL(join(FILES, 'common-lib.js')).href)) as CommonLib;
});

test.after(async (ctx) => {
  await ctx.node.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the default common files are served on every subdomain as JavaScript, byte for byte', async (ctx) => {
  for (const file of ['common-lib.js', 'SimpleUI.mjs', 'useGraphQLQuery.mjs']) {
    const r = await httpRequest(serviceUrl(ctx.node.api, 'example', `/common/${file}`));
    assert.is(r.status, 200, file);
    assert.is(r.contentType, 'text/javascript', file);
    assert.equal(new Uint8Array(r.body), new Uint8Array(readFileSync(join(FILES, file))), file);
  }
});

test('common-lib.js: a WebCrypto key, an account for it, a signed action accepted, unsigned refused', async (ctx) => {
  const { lib } = ctx;
  const base = ctx.node.api;
  const pair = await lib.generateKeyPair();
  assert.is(await lib.publicKeyOf(pair.privateKey), pair.publicKey);
  const create = systemAction('root', 'auth-sig.newAccount', { name: 'webuser', key: lib.hexToUint8Array(pair.publicKey) });
  await lib.signAndPushTransaction(base, { actions: [{ sender: 'root', service: 'auth-sig', method: 'newAccount', rawData: bytesToHex(create.rawData) }] });
  const increment = { actions: [{ sender: 'webuser', service: 'example', method: 'increment', data: { name: 'web', by: '5' } }] };
  const trace = await lib.signAndPushTransaction(base, increment, [pair.privateKey]);
  assert.is(trace.error, null);
  const value = await httpRequest(serviceUrl(base, 'example', '/counter?owner=webuser&name=web'));
  assert.is(value.text(), '5');
  const unsigned = await rejectionMessage(lib.signAndPushTransaction(base, increment), 'an unsigned action of a keyed account was accepted');
  assert.match(unsigned, 'does not include a claim for the key needed to authenticate sender webuser');
});

test.run();
