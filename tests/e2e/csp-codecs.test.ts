// host-api's codecs in a page whose Content-Security-Policy forbids eval (`script-src 'self'`, no
// 'unsafe-eval'), as a service may send for its pages: headless chromium imports host-api from a
// real node (x-admin.<root>/lib/host-api/, runtime/http/local-hosts.ts) and packs and unpacks a
// Transaction (docs/formats.md) with the interpreted member loops, the bytes and JSON Node gets;
// in the same page `new Function` and the forced compiled loops are refused, so the CSP bites. A page
// without the CSP is the control: there compiling works.
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Transaction, bytesToHex } from '../../host-api/index.js';
import { serviceUrl } from '../../runtime/cli/client.js';
import { launchBrowser } from '../lib/browser.js';
import { startNode } from '../lib/node-process.js';
import { runsNode, type NodeContext } from '../lib/node-suite.js';

interface Ctx extends NodeContext { browser: Browser }
const test = suite<Ctx>('host-api codecs under a CSP without unsafe-eval');

const TRANSACTION = {
  tapos: { expiration: '2026-11-26T12:00:00Z', refBlockSuffix: 0x11223344, flags: 0, refBlockIndex: 5 },
  actions: [
    { sender: 'alice', service: 'tokens', method: 'transfer', rawData: '0102030405060708' },
    { sender: 'bob', service: 'accounts', method: 'newAccount', rawData: '' },
  ],
  claims: [{ service: 'verify-sig', rawData: 'AABBCC' }],
};

// host-api imports the noble packages by name; the node serves them under /lib/ (as x-admin's page does).
const IMPORT_MAP = '{ "imports": { "@noble/hashes/": "/lib/noble-hashes/", "@noble/curves/": "/lib/noble-curves/" } }';
/** Scripts from the page's origin and the import map (by its hash): no inline code, no eval. */
const CSP = `default-src 'self'; script-src 'self' 'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`;

const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">${IMPORT_MAP}</script>
<script type="module" src="check.js"></script>
</head><body></body></html>`;

/** The page's module: what the page could do with host-api, as `window.outcome`. */
const CHECK = `
import { CORE_SCHEMA, FracpackError, Transaction, bytesToHex, compileSchema } from '/lib/host-api/index.js';

const refusal = (f) => { try { f(); return null; } catch (err) { return err.name + ': ' + err.message; } };
const transaction = ${JSON.stringify(TRANSACTION)};
const packed = Transaction.pack(Transaction.fromJson(transaction));
window.outcome = {
  evalRefused: refusal(() => new Function('return 1')),
  packed: bytesToHex(packed),
  json: Transaction.toJson(Transaction.unpack(packed)),
  truncated: Transaction.check(packed.subarray(0, packed.length - 1))?.code ?? null,
  isFracpackError: Transaction.check(packed.subarray(0, 3)) instanceof FracpackError,
  compiledRefused: refusal(() => compileSchema(CORE_SCHEMA, { memberLoops: 'compiled' }).type('Transaction').pack(transaction)),
};
document.body.dataset.done = 'true';
`;

runsNode(test, 'csp', (dir) => startNode(dir));

test.before(async (ctx) => {
  ctx.browser = await launchBrowser();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
});

/**
 * Opens the test page at `x-admin.<root>/<dir>/` (its HTML and module supplied by the test, with
 * `csp` as its header when given; host-api comes from the node) and answers `window.outcome`.
 */
async function openCheckPage(ctx: Ctx, dir: string, csp?: string): Promise<Record<string, unknown>> {
  const page: Page = await ctx.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console error: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`); });
  try {
    const url = serviceUrl(ctx.node.api, 'x-admin', `/${dir}/`);
    const headers = (contentType: string) => ({ 'Content-Type': contentType, ...(csp ? { 'Content-Security-Policy': csp } : {}) });
    await page.route((u) => u.href === url, (route) => route.fulfill({ status: 200, headers: headers('text/html; charset=utf-8'), body: PAGE }));
    await page.route((u) => u.href === `${url}check.js`, (route) => route.fulfill({ status: 200, headers: headers('text/javascript'), body: CHECK }));
    await page.goto(url);
    await page.waitForSelector('body[data-done="true"]', { state: 'attached', timeout: 20_000 }).catch(() => {
      throw new Error(`the page did not finish: ${errors.join('; ') || 'no page error'}`);
    });
    assert.equal(errors, [], 'no uncaught errors in the page');
    return await page.evaluate(() => (globalThis as unknown as { outcome: Record<string, unknown> }).outcome);
  } finally {
    await page.close();
  }
}

/** What Node (where compiling works) makes of the same transaction. */
function expected() {
  const packed = Transaction.pack(Transaction.fromJson(TRANSACTION));
  return {
    packed: bytesToHex(packed),
    json: Transaction.toJson(Transaction.unpack(packed)),
    truncated: Transaction.check(packed.subarray(0, packed.length - 1))?.code ?? null,
  };
}

test('under script-src \'self\' eval is refused, yet a Transaction packs and unpacks as in Node', async (ctx) => {
  const outcome = await openCheckPage(ctx, 'csp-page', CSP);
  assert.match(String(outcome.evalRefused), /^EvalError: /, 'the CSP forbids new Function');
  assert.match(String(outcome.compiledRefused), /^EvalError: /, 'compiled member loops cannot run here');
  const node = expected();
  assert.is(outcome.packed, node.packed);
  assert.equal(outcome.json, node.json);
  assert.is(outcome.truncated, node.truncated);
  assert.ok(node.truncated, 'a truncated transaction is refused');
  assert.is(outcome.isFracpackError, true);
});

test('without the CSP the same page compiles: eval works and the bytes are the same', async (ctx) => {
  const outcome = await openCheckPage(ctx, 'plain-page');
  assert.is(outcome.evalRefused, null);
  assert.is(outcome.compiledRefused, null);
  assert.is(outcome.packed, expected().packed);
});

test.run();
