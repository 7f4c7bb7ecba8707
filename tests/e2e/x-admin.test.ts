// The x-admin web app in headless chromium against real node processes: the dashboard's live head
// block, the configuration editor (round trip of fields it does not know, the node's refusals),
// peers, the live log with filters, keys, and booting a node that has no chain from the browser
// (host-api computing the boot transactions in the page, with an account key and a block key).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPair, toPem } from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../runtime/cli/client.js';
import { adminRequest } from '../lib/admin-requests.js';
import { waitUntil } from '../lib/node-network.js';
import { launchBrowser } from '../lib/browser.js';
import { startBootedNode, testBundleFile } from '../lib/booted-node.js';
import { startNode, type RunningNode } from '../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode; fresh: RunningNode; browser: Browser; page: Page }
const test = suite<Ctx>('x-admin app in headless chromium');

const WAIT = { timeout: 20_000 };

const xAdmin = (node: RunningNode, target: string) => serviceUrl(node.api, 'x-admin', target);

async function getJson(node: RunningNode, target: string): Promise<any> {
  const reply = await adminRequest(node, target);
  assert.is(reply.status, 200, reply.text());
  return reply.json();
}

async function putConfig(node: RunningNode, config: unknown): Promise<void> {
  const reply = await adminRequest(node, '/config', { method: 'PUT', json: config });
  assert.is(reply.status, 200, reply.text());
}

/** Opens a screen of the app and waits until its heading is shown. */
async function openScreen(page: Page, node: RunningNode, screen: string, title: string): Promise<void> {
  await page.goto(xAdmin(node, `/#/${screen}`));
  await page.waitForSelector(`main h1:text-is("${title}")`, WAIT);
}

/** The outcome line of the last action, once it shows one: its kind (ok, error) and text. */
async function outcome(page: Page): Promise<{ kind: string; text: string }> {
  const line = await page.waitForSelector('.message[data-kind]', WAIT);
  return { kind: (await line.getAttribute('data-kind'))!, text: (await line.textContent())! };
}

/** The text of the outcome line, which must show a refusal. */
async function refusal(page: Page): Promise<string> {
  const refused = await outcome(page);
  assert.is(refused.kind, 'error');
  return refused.text;
}

/** Waits until the dashboard shows a head block above `n`; answers it. */
async function headBlockAbove(page: Page, n: number): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const shown = Number(await page.textContent('[data-head-block]'));
    if (shown > n) return shown;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the head block shown stays at most ${n}`);
}

/** Clears the outcome line, so the next `outcome` is the next action's. */
const clearOutcome = (page: Page) => page.$$eval('.message', (lines: { removeAttribute(name: string): void }[]) => lines.forEach((l) => l.removeAttribute('data-kind')));

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-x-admin-'));
  ctx.node = await startBootedNode(ctx.dir);
  const bundle = testBundleFile(ctx.dir);
  // No chain and no producer: the app's boot screen boots it, with this bundle as the default one.
  ctx.fresh = await startNode(join(ctx.dir, 'fresh'), [], { TSIBASE_DEFAULT_BUNDLE: bundle });
  ctx.browser = await launchBrowser();
  ctx.page = await ctx.browser.newPage();
});

test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.node?.stop();
  await ctx.fresh?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('x-admin serves host-api, the noble packages and the default bundle read-only, JavaScript as text/javascript', async (ctx) => {
  for (const target of ['/lib/host-api/index.js', '/lib/noble-hashes/sha2.js', '/lib/noble-curves/nist.js', '/admin.js']) {
    const reply = await httpRequest(xAdmin(ctx.node, target));
    assert.is(reply.status, 200, target);
    assert.is(reply.contentType, 'text/javascript', target);
  }
  assert.is((await httpRequest(xAdmin(ctx.fresh, '/default.bundle'))).status, 200);
  assert.is((await httpRequest(xAdmin(ctx.node, '/lib/host-api/index.js'), { method: 'DELETE' })).status, 404);
});

test('the dashboard shows the chain, counters, memory, the producers and a live head and irreversible block', async (ctx) => {
  await openScreen(ctx.page, ctx.node, 'dashboard', 'Dashboard');
  const chainId = (await httpRequest(new URL('/common/chainid', ctx.node.api).toString())).json() as string;
  const chain = await ctx.page.waitForSelector('[data-chain-state][data-state="booted"]', WAIT);
  assert.match((await chain.textContent())!, chainId);
  // The test node is booted without an account key: a development chain, and the dashboard says so.
  const security = await ctx.page.waitForSelector('[data-security="development"]', WAIT);
  assert.match((await security.textContent())!, /Development chain: anyone may act as root, transact, accounts, auth-sig/);
  const first = await headBlockAbove(ctx.page, 1);
  await headBlockAbove(ctx.page, first);
  // A single producer's blocks are irreversible at once; the producer set is the boot producer.
  const irreversible = Number(await ctx.page.textContent('[data-irreversible-block]'));
  assert.ok(irreversible >= first, `irreversible ${irreversible}, head was ${first}`);
  await ctx.page.waitForSelector('[data-producers] [data-producer="prod"]', WAIT);
  // No peer is ahead of the producer: synced, the bar full.
  await ctx.page.waitForSelector('[data-sync][data-state="synced"]', WAIT);
  assert.match((await ctx.page.textContent('[data-sync-text]'))!, /^synced: at block \d+, the head of the peers$/);
  assert.ok(Number(await ctx.page.textContent('[data-transactions="total"]')) > 0);
  await ctx.page.waitForSelector('.memory-chart path[data-category="database"]', WAIT);
  assert.match((await ctx.page.textContent('[data-memory="database"]'))!, /iB$/);
});

test('the configuration editor saves a peer and http_timeout, and sends unknown fields back unchanged', async (ctx) => {
  const unknown = { nested: { list: [1, 'two', null] }, flag: true };
  await putConfig(ctx.node, { ...await getJson(ctx.node, '/config'), 'x-e2e-field': unknown });
  await openScreen(ctx.page, ctx.node, 'config', 'Configuration');
  await ctx.page.waitForSelector('textarea[name="peers"]', WAIT);
  assert.match((await ctx.page.textContent('main'))!, 'x-e2e-field');
  await ctx.page.fill('textarea[name="peers"]', 'http://peer-one.example:9000\nhttp://peer-two.example:9000');
  await ctx.page.fill('input[name="http_timeout"]', '2500000');
  await ctx.page.click('button:text-is("Save")');
  assert.equal(await outcome(ctx.page), { kind: 'ok', text: 'Saved.' });
  const saved = await getJson(ctx.node, '/config');
  assert.equal(saved.peers, ['http://peer-one.example:9000', 'http://peer-two.example:9000']);
  assert.is(saved.http_timeout, 2_500_000);
  assert.equal(saved['x-e2e-field'], unknown);
  assert.is(saved.producer, 'prod');
});

test('the configuration editor shows the node\'s refusal of a bad value and changes nothing', async (ctx) => {
  await clearOutcome(ctx.page);
  await ctx.page.fill('input[name="producer"]', 'Not An Account');
  await ctx.page.click('button:text-is("Save")');
  assert.match(await refusal(ctx.page), "producer: 'Not An Account' is not an account name (HTTP 400)");
  assert.is((await getJson(ctx.node, '/config')).producer, 'prod');
});

test('peers: connect dials another node, whose link shows in the list; disconnect closes it', async (ctx) => {
  const peer = await startNode(join(ctx.dir, 'peer'), ['--p2p']);
  try {
    const endpoint = `127.0.0.1:${peer.port}`;
    await openScreen(ctx.page, ctx.node, 'peers', 'Peers');
    // The configured peers (peer-one, peer-two) do not answer: listed as not linked, dialled again.
    await ctx.page.waitForSelector('[data-link-state="not-linked"]', WAIT);
    const waiting = await ctx.page.$$eval('[data-peers] tbody tr', (rows: { textContent: string | null; querySelector(s: string): unknown }[]) =>
      rows.filter((r) => r.querySelector('[data-link-state="not-linked"]')).map((r) => r.textContent ?? ''));
    assert.equal(waiting, ['http://peer-one.example:9000not linked: dialled again with backoff', 'http://peer-two.example:9000not linked: dialled again with backoff']);
    await clearOutcome(ctx.page);
    await ctx.page.fill('input[name="url"]', `http://${endpoint}`);
    await ctx.page.click('button:text-is("Connect")');
    assert.equal(await outcome(ctx.page), { kind: 'ok', text: `Dialling http://${endpoint}: the link shows above once it is up.` });
    const listed = (shown: boolean) => waitUntil(`the link ${shown ? 'listed' : 'gone'}`, async () => {
      await ctx.page.click('button:text-is("Refresh")');
      return (await ctx.page.textContent('[data-peer-links]'))!.includes(endpoint) === shown;
    });
    await listed(true);
    await clearOutcome(ctx.page);
    await ctx.page.click('[data-peers] button:text-is("Disconnect")');
    assert.match((await outcome(ctx.page)).text, /^Disconnected peer \d+\.$/);
    await listed(false);
  } finally {
    await peer.stop();
  }
});

test('logs stream records that pass the filter; a bad filter shows the 1008 refusal, a fixed one reconnects', async (ctx) => {
  await openScreen(ctx.page, ctx.node, 'logs', 'Logs');
  await ctx.page.waitForSelector('[data-socket-state="open"]', WAIT);
  await ctx.page.fill('input[name="filter"]', 'Channel = http');
  await ctx.page.click('button:text-is("Apply")');
  // The node applies a new filter asynchronously: request until a request's record shows up;
  // from then on only records that pass it arrive.
  const seen = (marker: string) => ctx.page.$eval('[data-log-records]', (rows, m) => rows.textContent!.includes(m), marker);
  const requestUntilSeen = async (marker: string) => {
    for (let i = 0; i < 100 && !(await seen(marker)); i++) {
      await httpRequest(xAdmin(ctx.node, `/native/admin/status?${marker}`));
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(await seen(marker), `${marker} is in the table`);
  };
  await requestUntilSeen('marker=e2e');
  await ctx.page.click('button:text-is("Clear")');
  await requestUntilSeen('marker=filtered');
  const channels = await ctx.page.$$eval('[data-log-records] tr td:nth-child(3)', (cells) => cells.map((c) => c.textContent));
  assert.ok(channels.every((c) => c === 'http'), channels.join(' '));

  await ctx.page.fill('input[name="filter"]', 'Severity >>= info');
  await ctx.page.click('button:text-is("Apply")');
  assert.match(await refusal(ctx.page), /refused the filter: .+ \(1008\)/);
  await ctx.page.waitForSelector('[data-socket-state="closed"]', WAIT);

  await ctx.page.fill('input[name="filter"]', 'Channel = http');
  await ctx.page.click('button:text-is("Apply")');
  await ctx.page.waitForSelector('[data-socket-state="open"]', WAIT);
  await requestUntilSeen('marker=again');
});

test('keys: a key generated in the page is listed; a refusal is shown', async (ctx) => {
  await openScreen(ctx.page, ctx.node, 'keys', 'Keys and devices');
  await ctx.page.waitForSelector('[data-keys], .empty', WAIT);
  await ctx.page.click('button:text-is("Generate key")');
  assert.equal(await outcome(ctx.page), { kind: 'ok', text: 'Generated a key.' });
  const keys = await getJson(ctx.node, '/native/admin/keys') as { service: string; rawData: string }[];
  assert.is(keys.length, 1);
  const listed = await ctx.page.waitForSelector('[data-keys]', WAIT);
  assert.match((await listed.textContent())!, keys[0]!.rawData);

  await clearOutcome(ctx.page);
  await ctx.page.fill('input[name="service"]', 'auth-any');
  await ctx.page.click('button:text-is("Generate key")');
  assert.match(await refusal(ctx.page), '(HTTP 400)');
  assert.is((await getJson(ctx.node, '/native/admin/keys')).length, 1);
});

test('a node without a chain joins a network from its Join screen: linked, synced with a progress bar, its peers screen shows the link up', async (ctx) => {
  await putConfig(ctx.node, { ...await getJson(ctx.node, '/config'), p2p: true });
  const joiner = await startNode(join(ctx.dir, 'joiner'), []);
  try {
    const url = `http://127.0.0.1:${ctx.node.port}`;
    await ctx.page.goto(xAdmin(joiner, '/'));
    await ctx.page.click('nav a:text-is("Join a network")');
    await ctx.page.waitForSelector('main h1:text-is("Join a network")', WAIT);
    await clearOutcome(ctx.page);
    await ctx.page.fill('input[name="peer"]', url);
    await ctx.page.click('button:text-is("Join")');
    await ctx.page.waitForSelector('main[data-join="done"]', { timeout: 90_000 });
    const joined = await outcome(ctx.page);
    assert.is(joined.kind, 'ok');
    assert.match(joined.text, /^Joined: the node follows the network at block \d+\.$/);
    const steps = await ctx.page.$$eval('.progress li', (items: { textContent: string | null; dataset: { step?: string } }[]) => items.map((i) => [i.textContent, i.dataset.step]));
    assert.equal(steps, [[`Adding ${url} to the configuration's peers`, 'done'], [`Linking to ${url}`, 'done'], ['Syncing the chain', 'done']]);
    await ctx.page.waitForSelector('main [data-sync][data-state="synced"]', WAIT);
    assert.match((await ctx.page.textContent('main [data-sync-text]'))!, /^synced: at block \d+, the head of the peers$/);
    assert.ok((await getJson(joiner, '/config')).peers.includes(url), 'kept in the configuration');
    assert.equal(await getJson(joiner, '/native/admin/status'), []);
    await openScreen(ctx.page, joiner, 'peers', 'Peers');
    const up = await ctx.page.waitForSelector('[data-peers] tr:has([data-link-state="up"])', WAIT);
    assert.match((await up.textContent())!, `${url}up (dialled by this node)`);
  } finally {
    await joiner.stop();
  }
});

test('a node without a chain opens on the boot screen, boots a secure chain with an account key and a generated block key from the page, then shows the dashboard', async (ctx) => {
  assert.equal(await getJson(ctx.fresh, '/native/admin/status'), ['needgenesis']);
  await ctx.page.goto(xAdmin(ctx.fresh, '/'));
  await ctx.page.waitForSelector('main h1:text-is("Boot a chain")', WAIT);
  assert.is(await ctx.page.inputValue('input[name="producer"]'), 'prod');
  const accountKey = generateKeyPair();
  await ctx.page.fill('textarea[name="accountKey"]', toPem('PUBLIC KEY', accountKey.publicKey));
  await ctx.page.check('input[name="blockKey"]');
  await ctx.page.click('button:text-is("Boot")');
  const chain = await ctx.page.waitForSelector('[data-chain-state][data-state="booted"]', { timeout: 60_000 });
  await ctx.page.waitForSelector('[data-security="secure"]', WAIT);
  const [blockKey] = await getJson(ctx.fresh, '/native/admin/keys') as { service: string; rawData: string }[];
  assert.is(blockKey!.service, 'verify-sig', 'the node generated the block key');
  const root = await new ChainClient(ctx.fresh.api).graphql('accounts', '{ getAccount(account: "root") { authService } }');
  assert.equal(root, { getAccount: { authService: 'auth-sig' } });
  assert.equal(await getJson(ctx.fresh, '/native/admin/status'), []);
  assert.is((await getJson(ctx.fresh, '/config')).producer, 'prod');
  const chainId = await httpRequest(new URL('/common/chainid', ctx.fresh.api).toString());
  assert.is(chainId.status, 200);
  assert.match((await chain.textContent())!, chainId.json() as string);
  await headBlockAbove(ctx.page, 2);
});

test.run();
