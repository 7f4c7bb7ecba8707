// The session cookie in a real browser (docs/administration.md §5.2): a page on a service subdomain of
// tsibase.localhost (plain http, a secure context for chromium) stores its login token with
// /common/set-auth-cookie; chromium keeps the `__Host-SESSION` cookie (Secure, Path=/, no
// Domain) and sends it with later requests, which the node resolves to the user; removing it ends
// the session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, systemAction, type KeyPair } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { serviceUrl } from '../../runtime/cli/client.js';
import { launchBrowser } from '../lib/browser.js';
import { startHttpProbeNode } from '../lib/http-probe-node.js';
import type { RunningNode } from '../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode; client: ChainClient; alice: KeyPair; browser: Browser; context: BrowserContext; page: Page }
const test = suite<Ctx>('the session cookie in headless chromium');

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-e2e-cookie-'));
  ctx.node = await startHttpProbeNode(ctx.dir);
  ctx.client = new ChainClient(ctx.node.api);
  ctx.alice = generateKeyPair('P-256');
  await ctx.client.push([systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: ctx.alice.publicKey })], { waitFor: 'applied' });
  ctx.browser = await launchBrowser();
  ctx.context = await ctx.browser.newContext();
  ctx.page = await ctx.context.newPage();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** What the probe service says the page's requests are made as (a fetch from the page, with its cookies). */
function userSeen(page: Page): Promise<unknown> {
  return page.evaluate(() => fetch('/user').then((r) => r.json()));
}

/** POSTs to a common auth-cookie endpoint from the page; the reply's status. */
function postFromPage(page: Page, path: string, body: unknown): Promise<number> {
  return page.evaluate(([p, b]) => fetch(p as string, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b),
  }).then((r) => r.status), [path, body] as const);
}

test('set-auth-cookie on a *.tsibase.localhost page makes later requests the user; remove-auth-cookie ends it', async (ctx) => {
  const origin = serviceUrl(ctx.node.api, 'probe', '/');
  await ctx.page.goto(origin);
  assert.is(await userSeen(ctx.page), null);

  const token = await ctx.client.login('alice', [ctx.alice]);
  assert.is(await postFromPage(ctx.page, '/common/set-auth-cookie', { accessToken: token }), 200);
  const cookies = await ctx.context.cookies(origin);
  const session = cookies.find((c) => c.name === '__Host-SESSION');
  assert.ok(session, `chromium kept no __Host-SESSION cookie: ${JSON.stringify(cookies)}`);
  assert.is(session.value, token);
  assert.is(session.secure, true);
  assert.is(session.httpOnly, true);
  assert.is(session.path, '/');
  assert.is(session.sameSite, 'Strict');
  assert.is(await userSeen(ctx.page), 'alice');
  // A navigation sends it too.
  const navigation = await ctx.page.goto(serviceUrl(ctx.node.api, 'probe', '/user'));
  assert.is(await navigation!.text(), '"alice"');

  assert.is(await postFromPage(ctx.page, '/common/remove-auth-cookie', {}), 200);
  assert.is((await ctx.context.cookies(origin)).find((c) => c.name === '__Host-SESSION'), undefined);
  assert.is(await userSeen(ctx.page), null);
});

test.run();
