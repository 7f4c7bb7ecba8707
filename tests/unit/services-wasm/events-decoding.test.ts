// The event decoding field (docs/serving.md §2, §6 rule 3) on a real service in the test chain,
// checked against graphql-js executing a reference resolver that decodes the same records with
// host-api's schema codec: events found and not found, in the wrong db, written by another
// service, of an unknown type or none, whose data does not unpack; requested fields the event
// lacks are null; event_all_content holds every field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSchema, graphql } from 'graphql';
import { DbId } from '../../../host-api/abi/databases.js';
import { EventsChain, KINDS, SDL, type Written } from './events-chain.js';

let events: EventsChain;
const schema = buildSchema(SDL);

const FIELDS = 'event_db event_id event_found event_service event_supported_service event_type event_unpack_ok event_all_content '
  + 'from to amount memo value ratio flag tags extra point { x y } detail { label weight } payload at big hash n nothing';

/** The decoding result by the rules, from what the test knows of the event. */
function reference(db: number, id: string): Record<string, unknown> {
  const result = {
    event_db: db, event_id: id, event_found: false, event_service: '', event_supported_service: false, event_type: '',
    event_unpack_ok: false, event_all_content: null as string | null,
  };
  const e: Written | undefined = events.written.find((w) => w.db === db && w.id === BigInt(id));
  if (!e) return result;
  const supported = e.service === 'emitter';
  const known = e.type !== '' && events.kindOf(e.type) === KINDS[db];
  const fields = supported && known ? e.fields : null;
  return {
    ...(fields ?? {}), ...result, event_found: true, event_service: e.service, event_supported_service: supported, event_type: e.type,
    event_unpack_ok: fields !== null, event_all_content: fields !== null ? JSON.stringify(fields) : null,
  };
}

const root = { event: ({ db, id }: { db: number; id: string }) => reference(db, id) };

async function agree(db: number, id: string | bigint): Promise<Record<string, unknown>> {
  const query = `{ event(db: ${db}, id: "${id}") { ${FIELDS} } }`;
  const mine = events.query('emitter', query);
  const theirs = JSON.parse(JSON.stringify(await graphql({ schema, source: query, rootValue: root })));
  assert.equal(mine, theirs, query);
  return (mine.data as { event: Record<string, unknown> }).event;
}

test.before(async () => {
  events = await EventsChain.open();
  events.act('emitter', 'transfer', { from: 'alice', to: 'bob', amount: '18446744073709551615', memo: 'rent for may' });
  events.act('emitter', 'transfer', { from: 'bob', to: 'carol', amount: 5, memo: '' });
  events.act('other', 'transfer', { from: 'dave', to: 'alice', amount: 7, memo: 'from another service' });
  events.act('emitter', 'note', {
    value: -42, ratio: 0.1, flag: true, tags: ['a', 'café', '𝄞'], extra: 7, point: { x: -3, y: 4 }, detail: { label: 'box', weight: 4000000000 },
    payload: '00ff10', at: '2024-02-29T12:34:56Z', big: '-9223372036854775808', hash: 'AB'.repeat(32),
  });
  events.act('emitter', 'note', {
    value: 2147483647, ratio: 1e21, flag: false, tags: [], extra: null, point: { x: 0, y: 0 }, detail: null,
    payload: '', at: '1970-01-01T00:00:00Z', big: '9223372036854775807', hash: '00'.repeat(32),
  });
  events.act('emitter', 'click', { n: 200 });
  events.act('emitter', 'seal', { hash: '11'.repeat(32) });
  // A transferred record whose memo is not UTF-8: found, of a known type, but it does not unpack.
  const bad = events.record('emitter', 'transferred', 'transferred', { from: 'alice', to: 'bob', amount: 1, memo: 'xyz' });
  bad[bad.length - 1] = 0xff;
  events.act('emitter', 'emitRaw', { db: DbId.historyEvent, record: bad }, 'transferred');
  events.act('emitter', 'emitRaw', { db: DbId.historyEvent, record: events.rawRecord('emitter', 'mystery', new Uint8Array([1, 2])) }, 'mystery');
  events.act('emitter', 'emitRaw', { db: DbId.historyEvent, record: events.rawRecord('emitter', null, null) });
  // A ui event type in the history db: the type is not one of the history events.
  events.act('emitter', 'emitRaw', { db: DbId.historyEvent, record: events.record('emitter', 'clicked', 'clicked', { n: 1 }) }, 'clicked');
});

test.after(async () => {
  await events?.close();
});

test('every event written, in its own db, decodes as the reference says', async () => {
  assert.ok(events.written.length >= 11);
  for (const e of events.written) await agree(e.db, e.id);
});

test('decoded events: the fields, names for accounts, 64-bit numbers as strings, all content as JSON', async () => {
  const first = events.written[0]!;
  const decoded = await agree(first.db, first.id);
  assert.equal(
    { found: decoded.event_found, ok: decoded.event_unpack_ok, type: decoded.event_type, service: decoded.event_service, to: decoded.to, amount: decoded.amount },
    { found: true, ok: true, type: 'transferred', service: 'emitter', to: 'bob', amount: '18446744073709551615' },
  );
  assert.equal(JSON.parse(decoded.event_all_content as string), { from: 'alice', to: 'bob', amount: '18446744073709551615', memo: 'rent for may' });
  assert.is(decoded.value, null, 'a field the event does not have is null');
  const note = events.written.find((w) => w.type === 'noted')!;
  const n = await agree(note.db, note.id);
  assert.equal([n.at, n.big, n.payload, n.tags, n.point], ['2024-02-29T12:34:56Z', '-9223372036854775808', '00FF10', ['a', 'café', '𝄞'], { x: -3, y: 4 }]);
});

test('not decoded: another service, unknown type, no type, wrong kind, bad data', async () => {
  const byType = (service: string, type: string) => events.written.find((w) => w.service === service && w.type === type && w.db === DbId.historyEvent)!;
  const other = await agree(DbId.historyEvent, byType('other', 'transferred').id);
  assert.equal([other.event_found, other.event_supported_service, other.event_unpack_ok, other.from], [true, false, false, null]);
  const mystery = await agree(DbId.historyEvent, byType('emitter', 'mystery').id);
  assert.equal([mystery.event_type, mystery.event_unpack_ok], ['mystery', false]);
  const wrongKind = await agree(DbId.historyEvent, byType('emitter', 'clicked').id);
  assert.equal([wrongKind.event_type, wrongKind.event_unpack_ok, wrongKind.n], ['clicked', false, null]);
  const bad = events.written.find((w) => w.type === 'transferred' && w.fields === null && w.service === 'emitter')!;
  const decoded = await agree(bad.db, bad.id);
  assert.equal([decoded.event_found, decoded.event_type, decoded.event_unpack_ok, decoded.event_all_content], [true, 'transferred', false, null]);
});

test('not found: ids past the last one, id 0, other event dbs, dbs that hold no events', async () => {
  const last = events.written.filter((w) => w.db === DbId.historyEvent).at(-1)!.id;
  for (const [db, id] of [[DbId.historyEvent, last + 1n], [DbId.historyEvent, 0n], [DbId.uiEvent, last], [DbId.merkleEvent, 2n], [0, 1n], [3, 1n], [7, 1n], [64, 1n]] as const) {
    const decoded = await agree(db, id);
    assert.is(decoded.event_found, false, `${db}/${id}`);
  }
});

test('arguments that are not a db number or a u64 id are errors', () => {
  for (const query of [
    '{ event(db: 4, id: "x") { event_found } }',
    '{ event(db: 4, id: "-1") { event_found } }',
    '{ event(db: 4, id: "18446744073709551616") { event_found } }',
    '{ event(db: 4.5, id: "1") { event_found } }',
    '{ event(id: "1") { event_found } }',
    '{ event(db: 4, id: 1) { event_found } }',
  ]) {
    const r = events.query('emitter', query);
    assert.ok(r.errors && r.errors.length > 0, query);
  }
});

test.run();
