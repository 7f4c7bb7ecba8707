// PSIBASE_ADMIN_IP on a real node (docs/http.md §4 rule 1): a forwarded address is admitted when it
// is an exact entry or in a CIDR range (IPv4-mapped too), never because an entry is a string
// prefix of it; an entry that does not parse stops the node at start, naming it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { adminRequest } from '../../lib/admin-requests.js';
import { startNode, type RunningNode } from '../../lib/node-process.js';

interface Ctx { dir: string; node: RunningNode }
const test = suite<Ctx>('PSIBASE_ADMIN_IP');

const ADMIN_IP = '10.9.8.7,192.168.0.0/16, fd00::/8';

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-admin-ip-'));
  ctx.node = await startNode(join(ctx.dir, 'node'), [], { PSIBASE_ADMIN_IP: ADMIN_IP });
});

test.after(async (ctx) => {
  await ctx.node?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** The status of /native/admin/status for a request forwarded for `address`, both ways of saying so. */
async function statusFor(ctx: Ctx, address: string): Promise<number[]> {
  const forwardedFor = address.includes(':') ? `"[${address}]"` : address;
  const byXff = await adminRequest(ctx.node, '/native/admin/status', { headers: { 'x-forwarded-for': address } });
  const byForwarded = await adminRequest(ctx.node, '/native/admin/status', { headers: { forwarded: `for=${forwardedFor}` } });
  return [byXff.status, byForwarded.status];
}

test('exact addresses and CIDR ranges admit; string prefixes and neighbours do not', async (ctx) => {
  const cases: [string, number][] = [
    ['10.9.8.7', 200],
    ['::ffff:10.9.8.7', 200],
    ['10.9.8.70', 401],
    ['10.9.8.71', 401],
    ['192.168.44.1', 200],
    ['::ffff:192.168.0.9', 200],
    ['192.169.0.1', 401],
    ['fd12::1', 200],
    ['fe80::1', 401],
    ['203.0.113.9', 401],
    ['127.0.0.1', 200],
  ];
  for (const [address, status] of cases) assert.equal(await statusFor(ctx, address), [status, status], address);
});

test('every forwarded address must pass: one outsider in the chain refuses', async (ctx) => {
  const mixed = await adminRequest(ctx.node, '/native/admin/status', { headers: { 'x-forwarded-for': '10.9.8.7, 10.9.8.70' } });
  assert.is(mixed.status, 401);
  const both = await adminRequest(ctx.node, '/native/admin/status', { headers: { 'x-forwarded-for': '10.9.8.7, 192.168.1.1' } });
  assert.is(both.status, 200);
});

test('an entry that does not parse stops the node at start, naming the entry', async (ctx) => {
  for (const entry of ['10.0.0.0/33', '10.9.8']) {
    try {
      const node = await startNode(join(ctx.dir, 'bad'), [], { PSIBASE_ADMIN_IP: `10.9.8.7,${entry}` });
      await node.stop();
      assert.unreachable(`started with ${entry}`);
    } catch (err) {
      assert.match((err as Error).message, `PSIBASE_ADMIN_IP: '${entry}'`);
      assert.match((err as Error).message, /node exited \(1\)/);
    }
  }
});

test.run();
