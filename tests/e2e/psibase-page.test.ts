// Issue 27 item 3 in a real browser: the common files psibase pages import (htm, React and
// ReactDOM 18's UMD builds, useGraphQLQuery.mjs) are served by common-api, and a page written the
// way psibase's apps are (tests/e2e/psibase-app/) renders GraphQL data and pushes a signed
// transfer from headless chromium.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { contentTypeOf, privateKeyToPkcs8, systemAction, toPem, type KeyPair } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';
import { launchBrowser } from '../lib/browser.js';
import { startBootedNode } from '../lib/booted-node.js';
import type { RunningNode } from '../lib/node-process.js';
import { aliceWithTokens, tokenBalance } from '../lib/tokens.js';
import { ROOT } from '../unit/services-wasm/program.js';

interface Ctx { dir: string; node: RunningNode; browser: Browser; page: Page; alice: KeyPair }
const test = suite<Ctx>('a psibase-style page in headless chromium');

const APP = join(ROOT, 'tests', 'e2e', 'psibase-app');

/** The files psibase serves under these names: htm's module build and React 18's UMD production builds. */
const PACKAGE_FILES = {
  'htm.module.js': 'htm/dist/htm.module.js',
  'react.production.min.js': 'react/umd/react.production.min.js',
  'react-dom.production.min.js': 'react-dom/umd/react-dom.production.min.js',
};

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-e2e-'));
  ctx.node = await startBootedNode(ctx.dir);
  const client = new ChainClient(ctx.node.api);
  ctx.alice = await aliceWithTokens(client, [
    ...['index.html', 'main.js'].map((file) => systemAction('tokens', 'sites.storeSys', {
      path: `/app/${file}`, contentType: contentTypeOf(file), content: readFileSync(join(APP, file)),
    })),
  ]);
  ctx.browser = await launchBrowser();
  ctx.page = await ctx.browser.newPage();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('common-api serves htm and React 18 under psibase\'s names, byte for byte, on every subdomain', async (ctx) => {
  for (const [name, file] of Object.entries(PACKAGE_FILES)) {
    for (const service of ['tokens', 'alice']) {
      const r = await httpRequest(serviceUrl(ctx.node.api, service, `/common/${name}`));
      assert.is(r.status, 200, name);
      assert.is(r.contentType, 'text/javascript', name);
      assert.equal(new Uint8Array(r.body), new Uint8Array(readFileSync(join(ROOT, 'node_modules', file))), name);
    }
  }
});

test('the page renders with React from the common files and shows GraphQL data', async (ctx) => {
  const errors: string[] = [];
  ctx.page.on('pageerror', (err) => errors.push(err.message));
  await ctx.page.goto(serviceUrl(ctx.node.api, 'tokens', '/app/'));
  const balance = await ctx.page.waitForSelector('[data-balance="alice"]', { timeout: 20_000 });
  assert.is(await balance.textContent(), '100');
  assert.is(await ctx.page.textContent('h1'), 'tokens');
  assert.equal(errors, []);
  assert.is(await ctx.page.evaluate(() => (globalThis as unknown as { React: { version: string } }).React.version), '18.3.1');
});

test('a transfer signed in the page is pushed, and the page refetches its query', async (ctx) => {
  await ctx.page.fill('#key', toPem('PRIVATE KEY', privateKeyToPkcs8(ctx.alice)));
  await ctx.page.fill('#to', 'bob');
  await ctx.page.fill('#amount', '25');
  await ctx.page.click('#transfer');
  const status = await ctx.page.waitForSelector('pre[data-status]', { timeout: 20_000 });
  assert.is(await status.getAttribute('data-status'), 'ok', (await status.textContent())!);
  assert.is(await tokenBalance(ctx.node.api, 'bob'), '25');
  await ctx.page.waitForSelector('[data-balance="alice"]:text-is("75")', { timeout: 20_000 });
});

test('useGraphQLPagedQuery pages through a connection', async (ctx) => {
  await ctx.page.reload();
  await ctx.page.waitForSelector('[data-holders="ready"] li', { timeout: 20_000 });
  const first = await ctx.page.$$eval('[data-holders] li', (items) => items.map((li) => li.textContent));
  await ctx.page.click('[data-next]');
  await ctx.page.waitForFunction((before) => {
    const items = Array.from((globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string }> } })
      .document.querySelectorAll('[data-holders="ready"] li'));
    return items.length === 1 && items[0]!.textContent !== before;
  }, first[0], { timeout: 20_000 });
  const second = await ctx.page.$$eval('[data-holders] li', (items) => items.map((li) => li.textContent));
  assert.equal([...first, ...second].sort(), ['alice', 'bob']);
});

test.run();
