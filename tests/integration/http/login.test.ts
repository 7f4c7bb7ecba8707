// Login on a real node (docs/administration.md §4.2, docs/chain.md §7, docs/http.md §5): a signed, never executed
// loginSys transaction buys a bearer token; the token, as a bearer header or the session cookie,
// makes serveSys receive the user; forged, expired and foreign tokens give no user; every rule
// of a login transaction refuses with its own status and message; an auth service may refuse by
// answering false instead of aborting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Action, SignedTransaction, Transaction, bytesToHex, generateKeyPair, methodNumberFromName, signPackedTransaction, systemAction, type KeyPair,
} from '../../../host-api/index.js';
import { utf8Bytes } from '../../../host-api/encoding/utf8.js';
import { LoginData } from '../../../host-api/types/native.js';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { deployActions } from '../../../host-api/boot/deploy-actions.js';
import { SessionTokens, TOKEN_LIFETIME_SECONDS } from '../../../runtime/http/session-tokens.js';
import { compiledEntry } from '../../unit/services-wasm/program.js';
import { startHttpProbeNode } from '../../lib/http-probe-node.js';
import type { RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode; client: ChainClient; alice: KeyPair; other: KeyPair }
const test = suite<Ctx>('login and bearer tokens');

const ROOT = 'tsibase.localhost';
const JSON_TYPE = { 'content-type': 'application/json' };
const now = () => Math.floor(Date.now() / 1000);

/** What the probe service says the request's user is. */
async function userSeen(ctx: Ctx, headers: Record<string, string>): Promise<unknown> {
  const r = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/user'), { headers });
  assert.is(r.status, 200, r.text());
  return r.json();
}

interface LoginTransaction {
  actions?: Action[];
  flags?: number;
  expiresIn?: number;
  keys?: KeyPair[];
  /** Claims for these keys, whatever signs. */
  claimKeys?: KeyPair[];
}

function loginAction(user: string, rootHost = ROOT): Action {
  return Action.unpack(Action.pack({ sender: user, service: 'transact', method: 'loginSys', rawData: LoginData.pack({ rootHost }) }));
}

async function loginBody(ctx: Ctx, user: string, t: LoginTransaction = {}): Promise<{ transaction: Uint8Array; signed: Uint8Array }> {
  const keys = t.keys ?? [ctx.alice];
  const tapos = { ...(await ctx.client.tapos(t.expiresIn ?? 10)), flags: t.flags ?? 1 };
  const transaction = Transaction.pack({
    tapos,
    actions: t.actions ?? [loginAction(user)],
    claims: (t.claimKeys ?? keys).map((k) => ({ service: 'verify-sig', rawData: k.publicKey })),
  });
  return { transaction, signed: signPackedTransaction(transaction, keys) };
}

function postLogin(ctx: Ctx, body: Uint8Array, contentType = 'application/octet-stream') {
  return httpRequest(serviceUrl(ctx.node.api, 'transact', '/login'), { method: 'POST', body, headers: { 'content-type': contentType } });
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-login-'));
  ctx.node = await startHttpProbeNode(ctx.dir);
  ctx.client = new ChainClient(ctx.node.api);
  ctx.alice = generateKeyPair('P-256');
  ctx.other = generateKeyPair('secp256k1');
  await ctx.client.push([systemAction('root', 'auth-sig.newAccount', { name: 'alice', key: ctx.alice.publicKey })], { waitFor: 'applied' });
});

test.after(async (ctx) => {
  await ctx.node.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('a good login gives a bearer token that serveSys sees as the user, by header or by cookie', async (ctx) => {
  const token = await ctx.client.login('alice', [ctx.alice]);
  const [header, payload] = token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')));
  assert.equal(header, { typ: 'JWT', alg: 'HS256' });
  assert.is(payload.sub, 'alice');
  assert.is(payload.aud, ROOT);
  assert.ok(Math.abs(Number(payload.exp) - (now() + TOKEN_LIFETIME_SECONDS)) <= 5, payload.exp);
  assert.is(await userSeen(ctx, {}), null);
  assert.is(await userSeen(ctx, { authorization: `Bearer ${token}` }), 'alice');
  assert.is(await userSeen(ctx, { cookie: `theme=dark; __Host-SESSION=${token}` }), 'alice');
  // The session cookie is `__Host-SESSION` on localhost too: a cookie named otherwise is not it.
  assert.is(await userSeen(ctx, { cookie: `SESSION=${token}` }), null);
});

test('services never see the Authorization header or the session cookie; other cookies stay', async (ctx) => {
  const token = await ctx.client.login('alice', [ctx.alice]);
  const cookie = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/cookie'), { headers: { cookie: `a=1; __Host-SESSION=${token}; flag; b=x=y` } });
  assert.is(cookie.json(), 'a=1; flag; b=x=y');
  const onlySession = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/cookie'), { headers: { cookie: `__Host-SESSION=${token}` } });
  assert.is(onlySession.json(), null);
  const echo = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/echo'), { headers: { authorization: `Bearer ${token}`, 'x-test': '1' } });
  const headers = (echo.json() as { headers: string[] }).headers;
  assert.ok(headers.includes('x-test'));
  assert.not.ok(headers.includes('authorization'));
});

test('forged, expired and foreign-domain tokens give no user', async (ctx) => {
  const token = await ctx.client.login('alice', [ctx.alice]);
  const [header, payload, signature] = token.split('.');
  const asBob = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'root' })).toString('base64url');
  const flipped = signature!.slice(0, -2) + (signature!.endsWith('AA') ? 'BA' : 'AA');
  const nodeKey = SessionTokens.fromKeyFile(join(ctx.dir, 'node', 'session-key'));
  for (const bad of [
    `${header}.${asBob}.${signature}`, // payload changed under the signature
    `${header}.${payload}.${flipped}`, // signature changed
    SessionTokens.withRandomKey().issue('alice', ROOT, now()), // another node's key
    nodeKey.issue('alice', ROOT, now() - TOKEN_LIFETIME_SECONDS - 10), // expired
    nodeKey.issue('alice', 'other.localhost', now()), // meant for another root domain
    'not-a-token',
  ]) {
    assert.is(await userSeen(ctx, { authorization: `Bearer ${bad}` }), null, bad);
  }
  // The node's own key, current and for this domain: the same check passes.
  assert.is(await userSeen(ctx, { authorization: `Bearer ${nodeKey.issue('alice', ROOT, now())}` }), 'alice');
});

test('a login transaction in JSON, with the transaction as an object or as hex', async (ctx) => {
  const { transaction, signed } = await loginBody(ctx, 'alice');
  const proofs = SignedTransaction.unpack(signed).proofs.map(bytesToHex);
  const asObject = Transaction.toJson(Transaction.unpack(transaction));
  for (const body of [{ transaction: asObject, proofs }, { transaction: bytesToHex(transaction), proofs }]) {
    const r = await postLogin(ctx, utf8Bytes(JSON.stringify(body)), 'application/json');
    assert.is(r.status, 200, r.text());
    assert.is((r.json() as { token_type: string }).token_type, 'bearer');
  }
});

test('each rule of a login transaction refuses with its status and message', async (ctx) => {
  const cases: [string, LoginTransaction, string, number, string][] = [
    ['two actions', { actions: [loginAction('alice'), loginAction('alice')] }, 'alice', 400, 'Expected a login transaction'],
    ['another method', { actions: [{ ...loginAction('alice'), method: methodNumberFromName('logout') }] }, 'alice', 400, 'Expected a login transaction'],
    ['broadcastable', { flags: 0 }, 'alice', 400, 'Login transaction must be do_not_broadcast'],
    ['another root host', { actions: [loginAction('alice', 'elsewhere.localhost')] }, 'alice', 400, 'Login data contains invalid root host'],
    ['a claim without its proof', { claimKeys: [ctx.alice, ctx.other] }, 'alice', 400, 'Proofs and claims must have the same size'],
    ['an unknown account', { actions: [loginAction('nobody')] }, 'nobody', 404, 'Account not found'],
    ['a key that is not the account\'s', { keys: [ctx.other] }, 'alice', 400, 'Login failed'],
    ['no key at all', { keys: [] }, 'alice', 400, 'Login failed'],
  ];
  for (const [what, t, user, status, message] of cases) {
    const r = await postLogin(ctx, (await loginBody(ctx, user, t)).signed);
    assert.is(r.status, status, `${what}: ${r.text()}`);
    assert.is(r.text(), message, what);
  }
});

test('an auth service answering checkAuthSys with a bool (newer psibase\'s interface): true logs in, false refuses', async (ctx) => {
  // The runner test service answers true until told to deny.
  const runner = await compiledEntry('tests/unit/services-wasm/transact/services/runner.as.ts');
  await ctx.client.push([
    ...deployActions('denier', runner.binary, { create: { insecure: true } }),
    systemAction('root', 'accounts.newAccount', { name: 'dora', authService: 'auth-any', requireMatch: true }),
    systemAction('dora', 'accounts.setAuthServ', { authService: 'denier' }),
  ], { waitFor: 'applied' });
  const login = async () => postLogin(ctx, (await loginBody(ctx, 'dora', { keys: [] })).signed);
  const approved = await login();
  assert.is(approved.status, 200, approved.text());
  await ctx.client.push([{ sender: 'denier', service: 'denier', method: 'denyAuth', rawData: new Uint8Array([0, 0]) }], { waitFor: 'applied' });
  const denied = await login();
  assert.is(denied.status, 400);
  assert.is(denied.text(), 'Login failed');
});

test('an expired login, a forged signature and a body that is not a transaction are refused', async (ctx) => {
  const expired = await loginBody(ctx, 'alice', { expiresIn: -5 });
  const r = await postLogin(ctx, expired.signed);
  assert.is(r.status, 400);
  assert.is(r.text(), 'Login expired');

  const { signed } = await loginBody(ctx, 'alice');
  signed[signed.length - 1] ^= 1;
  const forged = await postLogin(ctx, signed);
  assert.is(forged.status, 500);
  assert.match(forged.text(), /verify-sig/);

  const garbage = await postLogin(ctx, new Uint8Array([1, 2, 3]));
  assert.is(garbage.status, 400);
  assert.match(garbage.text(), /invalid login transaction/);
  for (const json of ['null', '{"transaction": 5, "proofs": []}', '{"transaction": {"tapos": 1}}', '{']) {
    const bad = await postLogin(ctx, utf8Bytes(json), 'application/json');
    assert.is(bad.status, 400, json);
    assert.match(bad.text(), /invalid login transaction/);
  }
  const text = await postLogin(ctx, utf8Bytes('{}'), 'text/plain');
  assert.is(text.status, 500);
  assert.is(text.text(), 'Expected a json or fracpack body');
  const get = await httpRequest(serviceUrl(ctx.node.api, 'transact', '/login'));
  assert.is(get.status, 405);
});

test('set-auth-cookie stores the token as the session cookie; remove-auth-cookie clears it', async (ctx) => {
  const token = await ctx.client.login('alice', [ctx.alice]);
  const set = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/common/set-auth-cookie'), {
    method: 'POST', headers: JSON_TYPE, body: utf8Bytes(JSON.stringify({ accessToken: token })),
  });
  assert.is(set.status, 200, set.text());
  const setCookie = set.headers['set-cookie'];
  assert.is(setCookie, `__Host-SESSION=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000; Secure`);
  assert.is(set.headers['access-control-allow-credentials'], 'true');
  // The pair the cookie sets, sent back as a browser would, is the session.
  assert.is(await userSeen(ctx, { cookie: String(setCookie).split(';')[0]! }), 'alice');
  const removed = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/common/remove-auth-cookie'), { method: 'POST' });
  assert.is(removed.status, 200);
  assert.is(removed.headers['set-cookie'], '__Host-SESSION=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
  const bad = await httpRequest(serviceUrl(ctx.node.api, 'probe', '/common/set-auth-cookie'), {
    method: 'POST', headers: JSON_TYPE, body: utf8Bytes(JSON.stringify({ accessToken: 'a;b' })),
  });
  assert.is(bad.status, 500);
  assert.match(bad.text(), /cannot carry/);
});

test('credentialed CORS on the auth cookie endpoints is for the supervisor origin only', async (ctx) => {
  const preflight = (origin: string) => httpRequest(serviceUrl(ctx.node.api, 'probe', '/common/set-auth-cookie'), {
    method: 'OPTIONS', headers: { origin, 'access-control-request-headers': 'content-type' },
  });
  const supervisor = `http://supervisor.${ROOT}:${ctx.node.port}`;
  const good = await preflight(supervisor);
  assert.is(good.headers['access-control-allow-origin'], supervisor);
  assert.is(good.headers['access-control-allow-headers'], 'content-type');
  const foreign = await preflight('http://evil.example');
  assert.is(foreign.headers['access-control-allow-origin'], undefined);
});

test.run();
