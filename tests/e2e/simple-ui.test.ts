// docs/serving.md §4.3-4.4 in a real browser: headless chromium opens the token service's SimpleUI on its
// subdomain of a real node, a person's key signs a transfer in the page (common-lib.js over
// WebCrypto), and the node's state shows its effect. The home page lists the service; the
// node's own x-admin app shows the chain.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, privateKeyToPkcs8, toPem, type KeyPair } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';
import { launchBrowser } from '../lib/browser.js';
import { startBootedNode } from '../lib/booted-node.js';
import type { RunningNode } from '../lib/node-process.js';
import { aliceWithTokens, tokenBalance } from '../lib/tokens.js';

interface Ctx { dir: string; node: RunningNode; browser: Browser; page: Page; alice: KeyPair }
const test = suite<Ctx>('SimpleUI in headless chromium');

const balance = (ctx: Ctx, account: string) => tokenBalance(ctx.node.api, account);

/** Fills the SimpleUI form of `transfer` and pushes it; returns the page's result status and text. */
async function pushTransfer(page: Page, sender: string, key: string, args: unknown): Promise<{ status: string; text: string }> {
  await page.fill('#sender', sender);
  await page.fill('#key', key);
  await page.fill('textarea[data-action="transfer"]', JSON.stringify(args));
  await page.$eval('pre[data-result="transfer"]', (pre: { removeAttribute(name: string): void }) => pre.removeAttribute('data-status'));
  await page.click('button[data-push="transfer"]');
  const result = await page.waitForSelector('pre[data-result="transfer"][data-status]', { timeout: 20_000 });
  return { status: (await result.getAttribute('data-status'))!, text: (await result.textContent())! };
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-e2e-'));
  ctx.node = await startBootedNode(ctx.dir);
  const client = new ChainClient(ctx.node.api);
  ctx.alice = await aliceWithTokens(client);
  ctx.browser = await launchBrowser();
  ctx.page = await ctx.browser.newPage();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('the service subdomain shows SimpleUI with one form per action', async (ctx) => {
  await ctx.page.goto(serviceUrl(ctx.node.api, 'tokens', '/'));
  await ctx.page.waitForSelector('#root[data-ready="true"]', { timeout: 20_000 });
  assert.is(await ctx.page.textContent('h1'), 'tokens');
  const actions = await ctx.page.$$eval('textarea[data-action]', (areas) => areas.map((a) => a.getAttribute('data-action')));
  for (const name of ['init', 'mint', 'transfer', 'balance']) assert.ok(actions.includes(name), `${name} in ${actions}`);
  assert.not.ok(actions.includes('serveSys'), 'serveSys is the chain\'s to call, not a form');
});

test('a transfer signed in the page with the sender\'s key moves the tokens', async (ctx) => {
  const pem = toPem('PRIVATE KEY', privateKeyToPkcs8(ctx.alice));
  const result = await pushTransfer(ctx.page, 'alice', pem, { to: 'bob', amount: '25', memo: 'from the browser' });
  assert.is(result.status, 'ok', result.text);
  assert.is(await balance(ctx, 'bob'), '25');
  assert.is(await balance(ctx, 'alice'), '75');
});

test('a transfer signed with another key is refused, shown in the page, and changes nothing', async (ctx) => {
  const pem = toPem('PRIVATE KEY', privateKeyToPkcs8(generateKeyPair('P-256')));
  const result = await pushTransfer(ctx.page, 'alice', pem, { to: 'bob', amount: '5', memo: '' });
  assert.is(result.status, 'error');
  assert.match(result.text, /error:/);
  assert.is(await balance(ctx, 'bob'), '25');
});

test('the home page at the root domain links the service', async (ctx) => {
  await ctx.page.goto(ctx.node.api + '/');
  const links = await ctx.page.$$eval('a', (as: { href: string }[]) => as.map((a) => a.href));
  assert.ok(links.some((href) => new URL(href).hostname.startsWith('tokens.')), links.join(' '));
});

test('the x-admin app shows that the node serves a chain, and which', async (ctx) => {
  await ctx.page.goto(serviceUrl(ctx.node.api, 'x-admin', '/'));
  const state = await ctx.page.waitForSelector('[data-chain-state][data-state]', { timeout: 20_000 });
  assert.is(await state.getAttribute('data-state'), 'booted');
  const chainId = (await httpRequest(new URL('/common/chainid', ctx.node.api).toString())).json() as string;
  assert.match((await state.textContent())!, chainId);
});

test.run();
