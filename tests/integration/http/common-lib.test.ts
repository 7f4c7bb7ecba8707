// The default common files on a real node: served under /common/ with their content type, and
// common-lib.js (the browser module, run here on Node's fetch and WebCrypto) building, signing
// and pushing transactions the chain accepts, through psibase's API: a base URL on a service's
// domain, psibase's text keys (K1 and R1) as well as PEM.
import { lookup as dnsLookup } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, setGlobalDispatcher } from 'undici';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, systemAction, bytesToHex } from '../../../host-api/index.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { rejectionMessage } from '../../lib/assert-error.js';
import { startBootedNode } from '../../lib/booted-node.js';
import { servedCommonFiles } from '../../lib/common-files.js';
import type { RunningNode } from '../../lib/node-process.js';
import { ROOT } from '../../unit/services-wasm/program.js';

const FILES = join(ROOT, 'services-wasm', 'common-api', 'files', 'common');

interface Trace { error: string | null }
interface CommonLib {
  generateKeyPair(): Promise<{ privateKey: string; publicKey: string }>;
  publicKeyOf(pem: string): Promise<string>;
  hexToUint8Array(hex: string): Uint8Array;
  uint8ArrayToHex(bytes: Uint8Array): string;
  siblingUrl(baseUrl: string | null, subDomain: string | null, path?: string | null): string;
  getTaposForHeadBlock(baseUrl?: string): Promise<{ refBlockIndex: number; refBlockSuffix: number }>;
  packAction(baseUrl: string, action: object): Promise<{ sender: string; service: string; method: string; rawData: string }>;
  packActions(baseUrl: string, actions: object[]): Promise<object[]>;
  packTransaction(baseUrl: string, transaction: object): Promise<ArrayBuffer>;
  packSignedTransaction(baseUrl: string, signed: object): Promise<ArrayBuffer>;
  signTransaction(baseUrl: string, transaction: object, keys: string[]): Promise<{ transaction: string; proofs: string[] }>;
  packAndPushSignedTransaction(baseUrl: string, signed: object, waitFor?: string): Promise<Trace>;
  pushPackedSignedTransaction(baseUrl: string, packed: ArrayBuffer): Promise<Trace>;
  signAndPushTransaction(baseUrl: string, transaction: unknown, keys?: string[], waitFor?: string): Promise<Trace>;
  publicStringToDER(text: string): Uint8Array;
  postJsonGetJson(url: string, json: unknown): Promise<unknown>;
  postGraphQLGetJson(url: string, query: string): Promise<{ data: unknown }>;
  getJson(url: string): Promise<unknown>;
  RPCError: new (message: string, trace?: unknown) => Error & { trace: unknown };
}

// psibase's documented example keys.
const K1 = { priv: 'PVT_K1_2bfGi9rYsXQSXXTvJbDAPhHLQUojjaNLomdm3cEJ1XTzMqUt3V', pub: 'PUB_K1_6MRyAjQq8ud7hVNYcfnVPJqcVpscN5So8BhtHuGYqET5BoDq63' };
const R1 = { priv: 'PVT_R1_fJ6ASApAc9utAL4zfNE4qwo22p7JpgHHSCVJ9pQfw4vZPXCq3', pub: 'PUB_R1_7pGpnu7HZVwi8kiLLDK2MJ6aYYS23eRJYmDXSLq5WZFCN6WEqY' };

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
  ctx.lib = (await import(pathToFileURL(join(await servedCommonFiles(), 'common-lib.js')).href)) as CommonLib;
});

test.after(async (ctx) => {
  await ctx.node.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the default common files are served on every subdomain as JavaScript, byte for byte', async (ctx) => {
  for (const file of ['common-lib.js', 'key-conversions.mjs', 'SimpleUI.mjs', 'useGraphQLQuery.mjs']) {
    const r = await httpRequest(serviceUrl(ctx.node.api, 'example', `/common/${file}`));
    assert.is(r.status, 200, file);
    assert.is(r.contentType, 'text/javascript', file);
    assert.equal(new Uint8Array(r.body), new Uint8Array(readFileSync(join(FILES, file))), file);
  }
});

test('common-lib.js: a WebCrypto key, an account for it, a signed action accepted, unsigned refused', async (ctx) => {
  const { lib } = ctx;
  const base = serviceUrl(ctx.node.api, 'example', '/');
  const pair = await lib.generateKeyPair();
  assert.is(await lib.publicKeyOf(pair.privateKey), pair.publicKey);
  const create = systemAction('root', 'auth-sig.newAccount', { name: 'webuser', key: lib.hexToUint8Array(pair.publicKey) });
  await lib.signAndPushTransaction(base, { actions: [{ sender: 'root', service: 'auth-sig', method: 'newAccount', rawData: bytesToHex(create.rawData) }] });
  const increment = { actions: [{ sender: 'webuser', service: 'example', method: 'increment', data: { name: 'web', by: '5' } }] };
  const trace = await lib.signAndPushTransaction(base, increment, [pair.privateKey]);
  assert.is(trace.error, null);
  const value = await httpRequest(serviceUrl(ctx.node.api, 'example', '/counter?owner=webuser&name=web'));
  assert.is(value.text(), '5');
  const unsigned = await rejectionMessage(lib.signAndPushTransaction(base, increment, [], 'applied'), 'an unsigned action of a keyed account was accepted');
  assert.match(unsigned, 'does not include a claim for the key needed to authenticate sender webuser');
});

test("psibase's names: siblingUrl, packAction, signTransaction's {transaction, proofs}, K1 and R1 text keys, RPCError's trace", async (ctx) => {
  const { lib } = ctx;
  const base = serviceUrl(ctx.node.api, 'example', '/');
  const root = new URL(ctx.node.api);
  assert.is(lib.siblingUrl(base, 'transact', '/push_transaction'), `${root.protocol}//transact.${root.host}/push_transaction`);
  assert.is(lib.siblingUrl(base, '', 'x'), `${root.protocol}//${root.host}/x`);
  assert.is(lib.siblingUrl(base, null, null), `${root.protocol}//${root.host}`);
  // Accounts for psibase's example keys, created with the keys' DER (compressed points).
  const accounts = [['kone', K1], ['rone', R1]] as const;
  const creates = accounts.map(([name, key]) => systemAction('root', 'auth-sig.newAccount', { name, key: lib.publicStringToDER(key.pub) }));
  await lib.signAndPushTransaction(base, { actions: creates.map((a) => ({ sender: 'root', service: 'auth-sig', method: 'newAccount', rawData: bytesToHex(a.rawData) })) }, []);

  const action = { sender: 'rone', service: 'example', method: 'increment', data: { name: 'psi', by: '2' } };
  const packed = await lib.packAction(base, action);
  const args = compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } }).pack({ name: 'psi', by: 2n });
  assert.equal(packed, { sender: 'rone', service: 'example', method: 'increment', rawData: bytesToHex(args) });
  assert.equal(await lib.packActions(base, [action, packed]), [packed, packed]);
  // psibase's own three-field TaPoS and a millisecond expiration, no flags, no claims.
  const tapos = { ...(await lib.getTaposForHeadBlock(base)), expiration: new Date(Date.now() + 60_000).toISOString() };
  const signed = await lib.signTransaction(base, { tapos, actions: [action] }, [R1.priv]);
  assert.equal(Object.keys(signed), ['transaction', 'proofs']);
  assert.is(signed.proofs.length, 1);
  assert.is(signed.proofs[0]!.length, 128);
  const trace = await lib.packAndPushSignedTransaction(base, signed);
  assert.is(trace.error, null);
  // A K1 key through signAndPushTransaction; then packSignedTransaction + pushPackedSignedTransaction.
  const k1Action = { ...action, sender: 'kone', data: { name: 'psi', by: '3' } };
  assert.is((await lib.signAndPushTransaction(base, { tapos, actions: [k1Action] }, [K1.priv])).error, null);
  const again = await lib.signTransaction(base, { tapos, actions: [{ ...k1Action, data: { name: 'psi', by: '4' } }] }, [K1.priv]);
  assert.is((await lib.pushPackedSignedTransaction(base, await lib.packSignedTransaction(base, again))).error, null);
  const value = await httpRequest(serviceUrl(ctx.node.api, 'example', '/counter?owner=rone&name=psi'));
  assert.is(value.text(), '2');
  assert.is((await httpRequest(serviceUrl(ctx.node.api, 'example', '/counter?owner=kone&name=psi'))).text(), '7');
  // The wrong key: the push rejects with an RPCError holding the trace (at once when applied).
  const wrong = await lib.signTransaction(base, { tapos, actions: [action] }, [K1.priv]);
  try {
    await lib.packAndPushSignedTransaction(base, wrong, 'applied');
    assert.unreachable('a transaction signed with the wrong key was accepted');
  } catch (err) {
    assert.instance(err, lib.RPCError);
    assert.match((err as Error).message, 'does not include a claim for the key needed to authenticate sender rone');
    assert.is(((err as { trace: Trace }).trace).error, (err as Error).message);
  }
});

test.run();
