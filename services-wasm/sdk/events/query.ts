// Event queries (docs/serving.md §4.7): a query names an event table (`<kind>.<service>.<event>`, e.g.
// `history.tokens.transferred`), an SQL condition with `?` placeholders bound in order to text
// parameters, and Connection paging (first/last/before/after). Each setter replaces its earlier
// value. The events service runs it (services-wasm/events) and answers a page of decoded events,
// or the error that stopped it; `writeConnection` turns that into a GraphQL Connection field
// (cursors are opaque, as those of `writeConnection` for table indexes).

import { callAction } from "../service/call";
import { account } from "../names/account";
import { methodNumber } from "../names/method";
import { pack, unpack } from "../fracpack/codec";
import { Option } from "../fracpack/option";
import { Edge, NO_COUNT, edgeTypeName, wholeArgument, writeConnectionOf } from "../graphql/connection";
import { Execution, FieldRequest } from "../graphql/execute";
import { ValueKind } from "../graphql/ast";
import { parseJson } from "../json/parse";
import { JsonObject } from "./json-object";

/** One event of a page: its cursor and its fields (a JSON object). */
@fracpack
export class EventEdge {
  constructor(public cursor: string = "", public fields: string = "") {}
}

/**
 * The events service's answer: a page in event-id order, or the error that stopped the query
 * (its message, and a stable code: EVENTS_BAD_TABLE, EVENTS_BAD_CONDITION, EVENTS_PARAMETER_COUNT,
 * EVENTS_BAD_COUNT, EVENTS_FIRST_AND_LAST, EVENTS_BAD_CURSOR, EVENTS_SCAN_LIMIT).
 */
@fracpack
export class EventPage {
  constructor(
    public error: string | null = null,
    public errorCode: string = "",
    public edges: Array<EventEdge> = [],
    public hasPreviousPage: bool = false,
    public hasNextPage: bool = false,
  ) {}
}

/** The query as the events service receives it. */
@fracpack
export class EventQuery {
  constructor(
    public table: string = "",
    public where: string = "",
    public params: Array<string> = [],
    public firstCount: Option<i64> = new Option<i64>(),
    public lastCount: Option<i64> = new Option<i64>(),
    public beforeCursor: string | null = null,
    public afterCursor: string | null = null,
  ) {}

  /** The SQL WHERE condition (empty: every event) and the text values of its `?` placeholders, in order. */
  condition(where: string, params: Array<string> = []): EventQuery {
    this.where = where;
    this.params = params;
    return this;
  }

  /** At most `count` events from the start of what is left (a negative count is an error). */
  first(count: i64): EventQuery {
    this.firstCount = new Option<i64>(true, count);
    return this;
  }

  /** At most `count` events from the end of what is left (a negative count is an error). */
  last(count: i64): EventQuery {
    this.lastCount = new Option<i64>(true, count);
    return this;
  }

  /** Only events before the one of this cursor (null: no bound). */
  before(cursor: string | null): EventQuery {
    this.beforeCursor = cursor;
    return this;
  }

  /** Only events after the one of this cursor (null: no bound). */
  after(cursor: string | null): EventQuery {
    this.afterCursor = cursor;
    return this;
  }

  /**
   * Sets first/last/before/after from a Connection field's arguments (absent ones clear them);
   * a count that is not a whole number is a field error in `exec`.
   */
  pageBy(field: FieldRequest, exec: Execution): EventQuery {
    this.firstCount = countOf(field, "first", exec);
    this.lastCount = countOf(field, "last", exec);
    this.beforeCursor = cursorOf(field, "before");
    this.afterCursor = cursorOf(field, "after");
    return this;
  }

  /** Runs the query in the events service (queries and callbacks: event dbs are read there). */
  execute(): EventPage {
    const rawData = pack<EventQueryArgs>(new EventQueryArgs(this));
    return unpack<EventPage>(callAction(0, EVENTS_SERVICE, QUERY_ACTION, rawData));
  }

  /**
   * Writes the result as the Connection of the field being resolved: `<typePrefix>Connection`,
   * `<typePrefix>Edge` and nodes of type `typePrefix` holding the event's fields. An error of the
   * query is a field error.
   */
  writeConnection(exec: Execution, typePrefix: string): void {
    const page = this.execute();
    const error = page.error;
    if (error !== null) {
      exec.fieldError(error);
      return;
    }
    const edges = new Array<Edge>();
    const edgeType = edgeTypeName(typePrefix);
    for (let i = 0; i < page.edges.length; i++) {
      const edge = page.edges[i];
      edges.push(new Edge(edgeType, new JsonObject(typePrefix, parseJson(edge.fields)), edge.cursor));
    }
    writeConnectionOf(exec, typePrefix, edges, page.hasPreviousPage, page.hasNextPage);
  }
}

/** The argument Object of the events service's `query` action. */
@fracpack
export class EventQueryArgs {
  constructor(public query: EventQuery = new EventQuery()) {}
}

const EVENTS_SERVICE = account("events");
const QUERY_ACTION = methodNumber("query");

/** A count argument, negative ones included (the events service refuses them, §7). */
function countOf(field: FieldRequest, name: string, exec: Execution): Option<i64> {
  const n = wholeArgument(field, name, exec);
  return n == NO_COUNT ? new Option<i64>() : new Option<i64>(true, n);
}

function cursorOf(field: FieldRequest, name: string): string | null {
  const v = field.argument(name);
  return v !== null && v.kind == ValueKind.String ? v.text : null;
}
