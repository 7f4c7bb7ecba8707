// GraphQL Connections (docs/serving.md §4.7, GraphQL Cursor Connections Specification). The paging
// algorithm (`takePage`) and the Connection/Edge/PageInfo objects serve any ordered range; here
// they serve a table index: `gt/ge/lt/le` narrow the key range, `after/before` (opaque cursors:
// the hex of an entry's key within the index) resume past a known entry, `first` keeps the
// beginning of what is left and `last` its end. hasNextPage is known only with `first`,
// hasPreviousPage only with `last`, as in the specification's algorithm. Event queries
// (sdk/events) page event ids with the same code.

import { bytesToHex, hexToBytes } from "../hex";
import { Cursor, compareBytes, successor } from "../tables/cursor";
import { KeyValue } from "../tables/db";
import { Index } from "../tables/table-index";
import { Value, ValueKind } from "./ast";
import { accountValue, integerValue, isNumber } from "./arguments";
import { Execution, FieldRequest, GqlObject } from "./execute";
import { writeList, writeOptionalString } from "./values";

/** How a row becomes the GraphQL object of an edge's node. */
export type NodeOf<Row> = (row: Row) => GqlObject;

/**
 * A key argument (numbers as Float or String, 64-bit ones as decimal String, accounts by name
 * when `accountKeys`, text as String) as the full key of that key in `index`; null after a
 * field error.
 */
function keyArgument<Row, K>(index: Index<Row, K>, v: Value, name: string, exec: Execution, accountKeys: bool): Uint8Array | null {
  if (isInteger<K>()) {
    const key = accountKeys && sizeof<K>() == 8 ? <K>accountValue(v, name, exec) : integerValue<K>(v, name, exec);
    return exec.failed ? null : index.keyBytes(key);
  }
  if (isString<K>()) {
    if (v.kind == ValueKind.String) return index.keyBytes(changetype<K>(v.text));
    exec.fieldError("Argument \"" + name + "\" must be a String.");
    return null;
  }
  exec.fieldError("Argument \"" + name + "\": this index's key cannot be given in a query.");
  return null;
}

/** Stands for an absent `first` or `last`. */
export const NO_COUNT: i64 = i64.MIN_VALUE;

/**
 * `first` or `last` as a whole number (negative ones included, clamped to the i32 range);
 * NO_COUNT when absent or after an error (recorded in `exec`).
 */
export function wholeArgument(field: FieldRequest, name: string, exec: Execution): i64 {
  const v = field.argument(name);
  if (v === null || v.kind == ValueKind.Null) return NO_COUNT;
  const n = isNumber(v) ? parseFloat(v.text) : NaN;
  if (isNaN(n) || Math.floor(n) != n) {
    exec.fieldError("Argument \"" + name + "\" must be a whole number.");
    return NO_COUNT;
  }
  return <i64>max(min(n, <f64>i32.MAX_VALUE), <f64>i32.MIN_VALUE);
}

/** `first` or `last`: a whole, non-negative count; -1 when absent or after an error (recorded in `exec`). */
function countArgument(field: FieldRequest, name: string, exec: Execution): i64 {
  const n = wholeArgument(field, name, exec);
  if (n == NO_COUNT) return -1;
  if (n < 0) {
    exec.fieldError("Argument \"" + name + "\" must be a non-negative whole number.");
    return -1;
  }
  return n;
}

/** The name of the edge type of the Connections named by `typePrefix`. */
export function edgeTypeName(typePrefix: string): string {
  return typePrefix + "Edge";
}

/** One edge of a Connection: a node and its opaque cursor (`typeName`: edgeTypeName of the Connection's prefix). */
export class Edge extends GqlObject {
  constructor(private edgeType: string, private node: GqlObject, readonly cursor: string) {
    super();
  }

  typeName(): string {
    return this.edgeType;
  }

  nonNull(field: string): bool {
    return true;
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    if (field.name == "node") exec.writeObject(this.node);
    else if (field.name == "cursor") exec.writeString(this.cursor);
    else return false;
    return true;
  }
}

/** A page's PageInfo: its cursors are null when it is empty. */
class PageInfo extends GqlObject {
  constructor(
    private hasPreviousPage: bool, private hasNextPage: bool, private startCursor: string | null, private endCursor: string | null,
  ) {
    super();
  }

  typeName(): string {
    return "PageInfo";
  }

  nonNull(field: string): bool {
    return field == "hasPreviousPage" || field == "hasNextPage";
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    if (field.name == "hasPreviousPage") exec.writeBool(this.hasPreviousPage);
    else if (field.name == "hasNextPage") exec.writeBool(this.hasNextPage);
    else if (field.name == "startCursor") writeOptionalString(exec, this.startCursor);
    else if (field.name == "endCursor") writeOptionalString(exec, this.endCursor);
    else return false;
    return true;
  }
}

/** Writes the Connection of a page's edges (`<prefix>Connection`, `<prefix>Edge`). */
export function writeConnectionOf(exec: Execution, typePrefix: string, edges: Array<Edge>, hasPreviousPage: bool, hasNextPage: bool): void {
  const start: string | null = edges.length > 0 ? edges[0].cursor : null;
  const end: string | null = edges.length > 0 ? edges[edges.length - 1].cursor : null;
  exec.writeObject(new Connection(typePrefix, edges, new PageInfo(hasPreviousPage, hasNextPage, start, end)));
}

class Connection extends GqlObject {
  constructor(private typePrefix: string, private edges: Array<Edge>, private pageInfo: PageInfo) {
    super();
  }

  typeName(): string {
    return this.typePrefix + "Connection";
  }

  nonNull(field: string): bool {
    return true;
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    if (field.name == "edges") writeList<Edge>(exec, this.edges, (e: Execution, edge: Edge): void => e.writeObject(edge), true);
    else if (field.name == "pageInfo") exec.writeObject(this.pageInfo);
    else return false;
    return true;
  }
}

/** A walk over a range, in one direction: the next entry, or null past the range's end. */
export abstract class RangeWalk<T> {
  abstract next(): T | null;
}

/** The entries of a page, in range order, and what lies beyond it. */
export class Page<T> {
  entries: Array<T> = [];
  hasPreviousPage: bool = false;
  hasNextPage: bool = false;
}

/**
 * Whether a page with these counts (-1: absent) is taken walking backward from the range's end:
 * with `last` alone. Otherwise it walks forward from the start.
 */
export function walksBackward(first: i64, last: i64): bool {
  return first < 0 && last >= 0;
}

/** The most entries a page holds: `first`, else `last`, else no bound. */
export function pageLimit(first: i64, last: i64): i64 {
  return first >= 0 ? first : last >= 0 ? last : i64.MAX_VALUE;
}

/**
 * The page of a range by the Cursor Connections algorithm, reading no more of `walk` (which
 * goes in the direction `walksBackward` tells) than the counts need.
 */
export function takePage<T>(walk: RangeWalk<T>, first: i64, last: i64): Page<T> {
  const page = new Page<T>();
  const backward = walksBackward(first, last);
  const limit = pageLimit(first, last);
  while (<i64>page.entries.length <= limit) {
    const entry = walk.next();
    if (entry === null) break;
    page.entries.push(entry!);
  }
  if (<i64>page.entries.length > limit) {
    page.entries.pop();
    if (backward) page.hasPreviousPage = true;
    else page.hasNextPage = true;
  }
  if (backward) {
    page.entries.reverse();
  } else if (last >= 0 && <i64>page.entries.length > last) {
    page.entries = page.entries.slice(page.entries.length - <i32>last);
    page.hasPreviousPage = true;
  }
  return page;
}

/** The most entries one forward step of an IndexWalk reads in one host call. */
const AHEAD_ROWS: i64 = 256;

/**
 * An index cursor as a walk over its entries, wanting at most `wanted` of them: forward, a
 * batch at a time through Cursor.ahead (GraphQL is served in RPC mode); backward, one by one.
 */
class IndexWalk<Row, K> extends RangeWalk<KeyValue> {
  private batch: Array<KeyValue> = [];
  private at: i32 = 0;

  constructor(private cursor: Cursor<Row, K>, private backward: bool, private wanted: i64) {
    super();
  }

  next(): KeyValue | null {
    const c = this.cursor;
    if (this.at == this.batch.length) {
      if (!c.valid) return null;
      this.at = 0;
      if (this.backward) {
        this.batch = [new KeyValue(c.key, c.value)];
        c.prev();
      } else {
        this.batch = c.ahead(<i32>min(max(this.wanted, 1), AHEAD_ROWS));
        this.wanted -= this.batch.length;
      }
    }
    return this.batch[this.at++];
  }
}

function later(a: Uint8Array, b: Uint8Array): Uint8Array {
  return compareBytes(a, b) >= 0 ? a : b;
}

function earlier(a: Uint8Array | null, b: Uint8Array): Uint8Array {
  return a === null || compareBytes(b, a) < 0 ? b : a;
}

class Query<Row, K> {
  /** The index's key prefix. */
  private prefix: Uint8Array;
  lower: Uint8Array;
  upper: Uint8Array | null = null;

  constructor(private index: Index<Row, K>, private field: FieldRequest, private exec: Execution, private accountKeys: bool) {
    const prefix = index.location.prefix(index.number);
    this.prefix = prefix;
    this.lower = prefix;
  }

  private key(name: string): Uint8Array | null {
    const v = this.field.argument(name);
    if (v === null || v.kind == ValueKind.Null) return null;
    return keyArgument<Row, K>(this.index, v, name, this.exec, this.accountKeys);
  }

  /** An opaque cursor back to the entry's full key; null (and an error) when it is not one of this index's. */
  private cursor(name: string): Uint8Array | null {
    const v = this.field.argument(name);
    if (v === null || v.kind == ValueKind.Null) return null;
    const bytes = v.kind == ValueKind.String ? hexToBytes(v.text) : null;
    if (bytes === null) {
      this.exec.fieldError("Argument \"" + name + "\" is not a cursor.");
      return null;
    }
    const full = new Uint8Array(this.prefix.length + bytes.length);
    full.set(this.prefix);
    full.set(bytes!, this.prefix.length);
    return full;
  }

  bound(): void {
    const ge = this.key("ge");
    const gt = this.key("gt");
    const after = this.cursor("after");
    const le = this.key("le");
    const lt = this.key("lt");
    const before = this.cursor("before");
    if (ge !== null) this.lower = later(this.lower, ge);
    if (gt !== null) this.lower = later(this.lower, successor(gt));
    if (after !== null) this.lower = later(this.lower, successor(after));
    if (le !== null) this.upper = earlier(this.upper, successor(le));
    if (lt !== null) this.upper = earlier(this.upper, lt);
    if (before !== null) this.upper = earlier(this.upper, before);
  }

  page(first: i64, last: i64): Page<KeyValue> {
    const upper = this.upper;
    if (upper !== null && compareBytes(upper, this.lower) <= 0) return new Page<KeyValue>();
    const backward = walksBackward(first, last);
    // takePage reads one entry past the page, to know whether more follow.
    const limit = pageLimit(first, last);
    const wanted = limit == i64.MAX_VALUE ? limit : limit + 1;
    return takePage<KeyValue>(new IndexWalk<Row, K>(this.index.between(this.lower, upper, backward), backward, wanted), first, last);
  }
}

/**
 * Writes the Connection of `index` for the query field `field` (its arguments as docs/serving.md §4.7
 * lists them). `typePrefix` names the types: `<prefix>Connection`, `<prefix>Edge`. With
 * `accountKeys`, 64-bit integer keys are accounts, given by name.
 */
export function writeConnection<Row, K>(
  index: Index<Row, K>, field: FieldRequest, exec: Execution, typePrefix: string, nodeOf: NodeOf<Row>, accountKeys: bool = false,
): void {
  const query = new Query<Row, K>(index, field, exec, accountKeys);
  query.bound();
  const first = countArgument(field, "first", exec);
  const last = countArgument(field, "last", exec);
  if (exec.failed) return;
  const page = query.page(first, last);
  const edges = new Array<Edge>(page.entries.length);
  const edgeType = edgeTypeName(typePrefix);
  const prefixLength = index.location.prefixLength;
  for (let i = 0; i < page.entries.length; i++) {
    const entry = page.entries[i];
    edges[i] = new Edge(edgeType, nodeOf(index.rowOf(entry.value)), bytesToHex(entry.key, prefixLength));
  }
  writeConnectionOf(exec, typePrefix, edges, page.hasPreviousPage, page.hasNextPage);
}
