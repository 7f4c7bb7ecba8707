// /common/common-lib.js in a real browser, used the way a psibase app's page uses it: headless
// chromium opens a service's subdomain of a real node, a module script there imports psibase's
// function names, packs an action (packAction(null, …)), signs with a PVT_R1_ key
// (signTransaction), pushes (packAndPushSignedTransaction) and the node's state shows the effect;
// a transaction signed with the wrong key rejects with an RPCError holding the trace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, systemAction, bytesToHex } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';
import { launchBrowser } from '../lib/browser.js';
import { startBootedNode } from '../lib/booted-node.js';
import type { RunningNode } from '../lib/node-process.js';
import { servedCommonFiles } from '../lib/common-files.js';

interface Ctx { dir: string; node: RunningNode; browser: Browser; page: Page }
const test = suite<Ctx>('common-lib.js in headless chromium');

// psibase's documented example R1 key, and another (K1) that is not the account's.
const R1 = { priv: 'PVT_R1_fJ6ASApAc9utAL4zfNE4qwo22p7JpgHHSCVJ9pQfw4vZPXCq3', pub: 'PUB_R1_7pGpnu7HZVwi8kiLLDK2MJ6aYYS23eRJYmDXSLq5WZFCN6WEqY' };
const OTHER_KEY = 'PVT_K1_2bfGi9rYsXQSXXTvJbDAPhHLQUojjaNLomdm3cEJ1XTzMqUt3V';

/**
 * Runs `body` as a module script of the page after psibase's imports from /common/common-lib.js;
 * what it returns (or throws) comes back as `{value}` or `{thrown, isRpcError, traceError}`.
 */
async function runModule(page: Page, body: string): Promise<Record<string, unknown>> {
  await page.$eval('body', (b: { removeAttribute(name: string): void }) => b.removeAttribute('data-result'));
  await page.addScriptTag({
    type: 'module',
    content: `
      import { getTaposForHeadBlock, packAction, signTransaction, packAndPushSignedTransaction, RPCError } from '/common/common-lib.js';
      const run = async () => { ${body} };
      run().then(
        (value) => { document.body.dataset.result = JSON.stringify({ value }); },
        (e) => { document.body.dataset.result = JSON.stringify({ thrown: e.message, isRpcError: e instanceof RPCError, traceError: e.trace?.error }); },
      );`,
  });
  const done = await page.waitForSelector('body[data-result]', { timeout: 60_000 });
  return JSON.parse((await done.getAttribute('data-result'))!) as Record<string, unknown>;
}

/**
 * Packs, signs with `key` and pushes `increment(name, by)` from `rone`, all in the page, expiring
 * in `seconds` (psibase's push waits for finality: a failed transaction answers at its expiration).
 */
const pushIncrement = (by: string, key: string, seconds = 60) => `
  const action = { sender: 'rone', service: 'example', method: 'increment', data: { name: 'page', by: '${by}' } };
  const packed = await packAction(null, action);
  const tapos = { ...(await getTaposForHeadBlock()), expiration: new Date(Date.now() + ${seconds * 1000}).toISOString() };
  const signed = await signTransaction(null, { tapos, actions: [action] }, ['${key}']);
  const trace = await packAndPushSignedTransaction(null, signed);
  return { rawData: packed.rawData, keys: Object.keys(signed), proofs: signed.proofs.length, error: trace.error };`;

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-e2e-lib-'));
  ctx.node = await startBootedNode(ctx.dir);
  const keys = (await import(pathToFileURL(join(await servedCommonFiles(), 'key-conversions.mjs')).href)) as {
    publicStringToDER(text: string): Uint8Array;
  };
  await new ChainClient(ctx.node.api).push([
    systemAction('root', 'auth-sig.newAccount', { name: 'rone', key: keys.publicStringToDER(R1.pub) }),
  ], { waitFor: 'applied' });
  ctx.browser = await launchBrowser();
  ctx.page = await ctx.browser.newPage();
  await ctx.page.goto(serviceUrl(ctx.node.api, 'example', '/'));
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const counter = async (ctx: Ctx) => (await httpRequest(serviceUrl(ctx.node.api, 'example', '/counter?owner=rone&name=page'))).text();

test("a page's module signs with a PVT_R1_ key through psibase's names and pushes; the chain shows it", async (ctx) => {
  const result = await runModule(ctx.page, pushIncrement('6', R1.priv));
  const args = compileSchema({}).typeOf({ Object: { name: 'string', by: 'u64' } }).pack({ name: 'page', by: 6n });
  assert.equal(result, { value: { rawData: bytesToHex(args), keys: ['transaction', 'proofs'], proofs: 1, error: null } });
  assert.is(await counter(ctx), '6');
});

test('signed with a key the account does not have: an RPCError with the trace, and nothing changes', async (ctx) => {
  const result = await runModule(ctx.page, pushIncrement('1', OTHER_KEY, 10));
  assert.is(result.isRpcError, true, JSON.stringify(result));
  assert.match(String(result.thrown), 'does not include a claim for the key needed to authenticate sender rone');
  assert.is(result.traceError, result.thrown);
  assert.is(await counter(ctx), '6');
});

test.run();
