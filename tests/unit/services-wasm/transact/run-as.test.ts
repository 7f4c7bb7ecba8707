// runAs (docs/administration.md §4.3): its four permission rules in order (the caller is the sender's auth
// service; the caller is the sender; an enclosing runAs allowed it; anything else), the request
// kind each asks the auth service for, the allowed actions living only while their runAs runs,
// and no checks at all before finishBoot.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accountNumberFromName as account, methodNumberFromName as method, type Action } from '../../../../host-api/index.js';
import { TransactChain, assertFails, assertOk, type DecodedEvent } from './harness.js';

let t: TransactChain;

test.before.each(async () => {
  t = await TransactChain.open();
});

test.after.each(async () => {
  await t.close();
});

type Allowed = { service: string | bigint; method: string | bigint }[];

const allowed = (list: [string, string][]): Allowed =>
  list.map(([service, name]) => ({ service: service ? account(service) : 0n, method: name ? method(name) : 0n }));

/** An action that, run by `runner` for `sender`, asks transact to run `inner` as inner.sender. */
function viaRunner(sender: string, runner: string, inner: Action, innerAllowed: Allowed = []): Action {
  return t.action(sender, runner, 'runAs', { action: inner, allowedActions: innerAllowed });
}

/** transact::runAs sent directly by `sender`. */
function runAs(sender: string, inner: Action, list: Allowed = []): Action {
  return t.action(sender, 'transact', 'runAs', { action: inner, allowedActions: list });
}

type Seen = { recorded: unknown; by: string } | { request: unknown; requester: unknown; sender: unknown };

/** The runAs requests the auth service saw (top-level checks left out), then who ran record. */
function requests(events: DecodedEvent[]): Seen[] {
  return events.flatMap((e): Seen[] => {
    if (e.name === 'recorded') return [{ recorded: e.data.sender, by: e.service }];
    if ((e.data.flags as number) === 0x40000001 || (e.data.flags as number) === 1) return [];
    return [{ request: e.data.flags, requester: e.data.requester, sender: e.data.sender }];
  });
}

function pushOk(...actions: Action[]) {
  const result = t.push(t.transaction(actions));
  assertOk(result);
  return requests(t.events(result));
}

test('before finishBoot runAs runs the action with no check', () => {
  assert.equal(pushOk(viaRunner('alice', 'svc-a', t.action('bob', 'svc-b', 'record'))), [{ recorded: account('bob'), by: 'svc-b' }]);
});

test('runAs returns the action\'s return value', () => {
  const result = t.call('alice', 'transact', 'runAs', { action: t.action('alice', 'runner', 'isTransaction'), allowedActions: [] });
  assertOk(result);
  assert.equal(result.value, new Uint8Array([0]));
});

test('rule 1: the sender\'s auth service runs as the sender without asking', () => {
  assertOk(t.call('carol', 'accounts', 'setAuthServ', { authService: 'svc-a' }));
  t.finishBoot();
  assert.equal(pushOk(viaRunner('alice', 'svc-a', t.action('carol', 'svc-b', 'record'))), [{ recorded: account('carol'), by: 'svc-b' }]);
});

test('rule 2: a caller running as itself asks for runAsRequesterReq', () => {
  t.finishBoot();
  assert.equal(pushOk(runAs('alice', t.action('alice', 'svc-b', 'record'))), [
    { request: 2, requester: account('alice'), sender: account('alice') },
    { recorded: account('alice'), by: 'svc-b' },
  ]);
  assert.equal(pushOk(viaRunner('alice', 'svc-a', t.action('svc-a', 'svc-b', 'record'))), [
    { request: 2, requester: account('svc-a'), sender: account('svc-a') },
    { recorded: account('svc-a'), by: 'svc-b' },
  ]);
});

test('rule 3: within an enclosing runAs its service may do what it was allowed', () => {
  t.finishBoot();
  const nested = (outerAllowed: Allowed, innerAllowed: Allowed = []) =>
    pushOk(runAs('alice', viaRunner('alice', 'svc-a', t.action('alice', 'svc-b', 'record'), innerAllowed), outerAllowed));
  const outer = { request: 2, requester: account('alice'), sender: account('alice') };
  const ran = { recorded: account('alice'), by: 'svc-b' };
  const inner = (request: number) => ({ request, requester: account('svc-a'), sender: account('alice') });
  assert.equal(nested(allowed([['svc-b', 'record']])), [outer, inner(3), ran]);
  assert.equal(nested(allowed([['svc-b', '']])), [outer, inner(3), ran]);
  assert.equal(nested(allowed([['', 'record']])), [outer, inner(3), ran]);
  // Asking for more than the enclosing runAs gave.
  assert.equal(nested(allowed([['svc-b', 'record']]), allowed([['', '']])), [outer, inner(4), ran]);
  // Not what the enclosing runAs allowed: rule 4.
  assert.equal(nested(allowed([['svc-b', 'inspect']])), [outer, inner(5), ran]);
  assert.equal(nested(allowed([['svc-a', 'record']])), [outer, inner(5), ran]);
});

test('rule 3 holds only while the enclosing runAs runs, for its service and sender', () => {
  t.finishBoot();
  const events = pushOk(
    runAs('alice', viaRunner('alice', 'svc-a', t.action('alice', 'svc-b', 'record')), allowed([['svc-b', 'record']])),
    // Afterwards svc-a asks again for alice: nothing encloses it any more.
    viaRunner('alice', 'svc-a', t.action('alice', 'svc-b', 'record')),
    // svc-a may have svc-b run for alice, but svc-b itself was allowed nothing.
    runAs('alice', viaRunner('alice', 'svc-a', viaRunner('alice', 'svc-b', t.action('alice', 'runner', 'record'))), allowed([['svc-b', 'runAs']])),
  );
  assert.equal(events.filter((e) => 'requester' in e && e.requester !== account('alice')), [
    { request: 3, requester: account('svc-a'), sender: account('alice') },
    { request: 5, requester: account('svc-a'), sender: account('alice') },
    { request: 3, requester: account('svc-a'), sender: account('alice') },
    { request: 5, requester: account('svc-b'), sender: account('alice') },
  ]);
});

test('rule 4: any other caller asks for runAsOtherReq, which the auth service may refuse', () => {
  t.finishBoot();
  assert.equal(pushOk(viaRunner('alice', 'svc-a', t.action('bob', 'svc-b', 'record'))), [
    { request: 5, requester: account('svc-a'), sender: account('bob') },
    { recorded: account('bob'), by: 'svc-b' },
  ]);
  assertOk(t.call('alice', 'auth-test', 'refuse', { requests: [5] }));
  assertFails(t.push(t.transaction([viaRunner('alice', 'svc-a', t.action('bob', 'svc-b', 'record'))])), 'auth-test refuses request 5');
});

test.run();
