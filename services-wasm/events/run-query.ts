// Running an event query: the table's events are the records of its db, in id order, that its
// service wrote with its type; the condition filters them and the Connection paging of
// sdk/graphql/connection takes a page, reading events by id only as far as the page needs. Ids
// run from 1 to the db's next id (native database status row); pruned ids are skipped, and so
// are records that do not decode. Cursors are the hex of the event id (8 bytes, big-endian).

import { DbId, bytesToHex, kv } from "../sdk/index";
import { hexToBytes } from "../sdk/hex";
import { NativeTable, nativeTablePrefix } from "../sdk/native/index";
import { EventEdge, EventHeader, EventPage, EventQuery, decodeEventData, readEvent } from "../sdk/events/index";
import { jsonText } from "../sdk/json/encode";
import { JsonKind, JsonValue } from "../sdk/json/value";
import { RangeWalk, pageLimit, takePage, walksBackward } from "../sdk/graphql/connection";
import { EventTable, findTable } from "./event-table";
import { Condition, parseCondition } from "./sql/parser";
import { Evaluation } from "./sql/evaluate";
import { numberOf, SqlValue } from "./sql/value";

const FIRST_EVENT_ID: u64 = 1;
/** Offset of the db's counter in the database status row {u16 size, history, ui, merkle: u64}. */
const COUNTER_OFFSET: i32 = 2;

/** The id the next event of `db` will get. */
function nextEventId(db: DbId): u64 {
  const row = kv.get(DbId.native, nativeTablePrefix(NativeTable.databaseStatus));
  const at = COUNTER_OFFSET + 8 * (<i32>db - <i32>DbId.historyEvent);
  if (row === null || row.length < at + 8) return FIRST_EVENT_ID;
  return load<u64>(row.dataStart + <usize>at);
}

function cursorOf(id: u64): string {
  const bytes = new Uint8Array(8);
  store<u64>(bytes.dataStart, bswap<u64>(id));
  return bytesToHex(bytes);
}

/** The event id of a cursor; -1 when the text is not one. */
function idOf(cursor: string): i64 {
  const bytes = hexToBytes(cursor);
  if (bytes === null || bytes.length != 8) return -1;
  const id = bswap<u64>(load<u64>(bytes.dataStart));
  return id > <u64>i64.MAX_VALUE ? -1 : <i64>id;
}

/** A decoded field as a condition value: integers (64-bit ones are strings) as INTEGER. */
function sqlValueOf(json: JsonValue | null, integer: bool): SqlValue {
  if (json === null || json.kind == JsonKind.Null) return SqlValue.null();
  if (json.kind == JsonKind.Bool) return SqlValue.bool(json.boolean);
  if (json.kind == JsonKind.Number || (integer && json.kind == JsonKind.String)) {
    const n = numberOf(json.text);
    if (n !== null) return n;
  }
  if (json.kind == JsonKind.String) return SqlValue.text(json.text);
  if (json.kind == JsonKind.Number) return SqlValue.real(parseFloat(json.text));
  return SqlValue.text(jsonText(json));
}

/**
 * The most events of its table one query decodes. The runtime frees nothing before a query ends,
 * and each decoded event keeps 1.5 to 2 KB (four fields), so some 20,000 fill its 32 MiB: past
 * this bound a query ends with a clear error (EVENTS_SCAN_LIMIT) instead of a trap.
 */
const MAX_DECODED_EVENTS = 2000;

/** The events of a table kept by the condition, walking ids in one direction within [lower, upper). */
class EventWalk extends RangeWalk<EventEdge> {
  private next_: u64;
  private decoded: i32 = 0;
  /** The column values of the event being tested, set in place: those the condition reads (the rest stay NULL). */
  private values: Array<SqlValue> = [];

  constructor(
    private table: EventTable, private condition: Condition, private evaluation: Evaluation,
    private lower: u64, private upper: u64, private backward: bool,
  ) {
    super();
    this.next_ = backward ? upper : lower;
    for (let i = 0; i < table.columns.length; i++) this.values.push(SqlValue.null());
  }

  /** The walk stopped at MAX_DECODED_EVENTS: what lies further is unknown. */
  get exhausted(): bool {
    return this.decoded > MAX_DECODED_EVENTS;
  }

  /** The next id to read, or 0 past the range. */
  private step(): u64 {
    if (this.backward) return this.next_ > this.lower ? --this.next_ : 0;
    return this.next_ < this.upper ? this.next_++ : 0;
  }

  next(): EventEdge | null {
    const table = this.table;
    for (let id = this.step(); id != 0; id = this.step()) {
      const record = readEvent(table.db, id);
      if (record === null) continue;
      const header = EventHeader.of(record);
      if (header === null || header.service != table.service || !header.hasType || header.type != table.event.number) continue;
      if (++this.decoded > MAX_DECODED_EVENTS) return null;
      const fields = decodeEventData(record, table.event).value;
      if (fields === null || !this.keeps(fields)) continue;
      if (this.evaluation.error.length > 0) return null;
      return new EventEdge(cursorOf(id), jsonText(fields));
    }
    return null;
  }

  private keeps(fields: JsonValue): bool {
    const root = this.condition.root;
    if (root === null) return true;
    const table = this.table;
    const reads = this.condition.reads;
    for (let i = 0; i < reads.length; i++) if (reads[i]) this.values[i] = sqlValueOf(fields.get(table.columns[i]), table.integers[i]);
    return this.evaluation.value(root, this.values).isTrue() || this.evaluation.error.length > 0;
  }
}

function failure(code: string, message: string): EventPage {
  return new EventPage(message, code);
}

/** A count: absent (-1) or non-negative; -2 when negative. */
function count(given: bool, value: i64): i64 {
  if (!given) return -1;
  return value < 0 ? -2 : value;
}

/** Runs `query` (in a query or callback: event dbs are readable there only). */
export function runQuery(query: EventQuery): EventPage {
  const first = count(query.firstCount.hasValue, query.firstCount.value);
  const last = count(query.lastCount.hasValue, query.lastCount.value);
  if (first == -2 || last == -2) return failure("EVENTS_BAD_COUNT", (first == -2 ? "first" : "last") + " must not be negative");
  if (first >= 0 && last >= 0) return failure("EVENTS_FIRST_AND_LAST", "first and last cannot both be set");
  const lookup = findTable(query.table);
  const table = lookup.table;
  if (table === null) return failure("EVENTS_BAD_TABLE", lookup.error);
  const condition = parseCondition(query.where, table.columns);
  if (condition.error.length > 0) return failure("EVENTS_BAD_CONDITION", condition.error);
  if (condition.placeholders != query.params.length) {
    return failure("EVENTS_PARAMETER_COUNT", "the condition has " + condition.placeholders.toString() + " placeholders (?) but " + query.params.length.toString() + " parameters were given");
  }
  let lower = FIRST_EVENT_ID;
  let upper = nextEventId(table.db);
  const after = query.afterCursor;
  const before = query.beforeCursor;
  if (after !== null) {
    const id = idOf(after);
    if (id < 0) return failure("EVENTS_BAD_CURSOR", "after is not a cursor");
    if (<u64>id + 1 > lower) lower = <u64>id + 1;
  }
  if (before !== null) {
    const id = idOf(before);
    if (id < 0) return failure("EVENTS_BAD_CURSOR", "before is not a cursor");
    if (<u64>id < upper) upper = <u64>id;
  }
  // Parameters are values, never text of the condition: nothing in them is parsed as SQL.
  const params = new Array<SqlValue>();
  for (let i = 0; i < query.params.length; i++) params.push(SqlValue.text(query.params[i]));
  const evaluation = new Evaluation(params);
  const page = new EventPage();
  if (lower >= upper) return page;
  const backward = walksBackward(first, last);
  const walk = new EventWalk(table, condition, evaluation, lower, upper, backward);
  const taken = takePage<EventEdge>(walk, first, last);
  if (evaluation.error.length > 0) return failure("EVENTS_BAD_CONDITION", evaluation.error);
  if (walk.exhausted) {
    if (<i64>taken.entries.length < pageLimit(first, last)) {
      return failure("EVENTS_SCAN_LIMIT", "the query decoded " + MAX_DECODED_EVENTS.toString() + " events of " + query.table
        + " without completing its page; ask for fewer with first or last, or narrow the range with after or before");
    }
    // The page is full; whether more events match beyond the bound is unknown, so say there may be.
    if (backward) taken.hasPreviousPage = true;
    else taken.hasNextPage = true;
  }
  page.edges = taken.entries;
  page.hasPreviousPage = taken.hasPreviousPage;
  page.hasNextPage = taken.hasNextPage;
  return page;
}
