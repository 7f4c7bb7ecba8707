// Example service: named counters per account, kept in a table with a secondary index by value,
// an event per increment, and a small HTTP interface.

import {
  AccountNumber, Option, some, none, Table, check, getSender, account,
  HttpRequest, HttpReply, checkHttpServerCaller, serveSimpleUi,
} from "../sdk/index";

@fracpack
export class Counter {
  constructor(public owner: AccountNumber = 0, public name: string = "", public value: u64 = 0) {}
}

/** Primary key: counters are unique per owner and name. */
@struct
class CounterKey {
  constructor(public owner: AccountNumber = 0, public name: string = "") {}
}

/** Secondary key: by value, made unique by the primary key. */
@struct
class ValueKey {
  constructor(public value: u64 = 0, public owner: AccountNumber = 0, public name: string = "") {}
}

const counters = new Table<Counter, CounterKey>(1, (c: Counter): CounterKey => new CounterKey(c.owner, c.name));
const byValue = counters.index<ValueKey>((c: Counter): ValueKey => new ValueKey(c.value, c.owner, c.name));

@service("example")
export class Example {
  /** Adds `by` to the sender's counter `name`; returns the new value. */
  @action
  increment(name: string, by: u64): u64 {
    check(name.length > 0, "a counter needs a name");
    const owner = getSender();
    const existing = counters.get(new CounterKey(owner, name));
    const counter = existing !== null ? existing : new Counter(owner, name, 0);
    check(counter.value <= u64.MAX_VALUE - by, "counter overflow");
    counter.value += by;
    counters.put(counter);
    this.incremented(owner, name, counter.value);
    return counter.value;
  }

  /** Removes the sender's counter `name`; the removal is provable from the block (a merkle event). */
  @action
  reset(name: string): void {
    const key = new CounterKey(getSender(), name);
    if (counters.get(key) === null) return;
    counters.remove(key);
    this.counterReset(key.owner, name);
  }

  @action
  get(owner: AccountNumber, name: string): Option<u64> {
    const counter = counters.get(new CounterKey(owner, name));
    return counter !== null ? some<u64>(counter.value) : none<u64>();
  }

  /** The `limit` highest counters, highest first. */
  @action
  top(limit: u32): Array<Counter> {
    const out = new Array<Counter>();
    for (const c = byValue.last(); c.valid && <u32>out.length < limit; c.prev()) out.push(c.row());
    return out;
  }

  /** GET /counter?owner=<account>&name=<name> answers the value as JSON; plus the simple UI. */
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const ui = serveSimpleUi(this, request, true);
    if (ui !== null) return ui;
    if (request.method != "GET" || request.path() != "/counter") return null;
    const owner = request.queryParam("owner");
    const name = request.queryParam("name");
    if (owner === null || name === null) return HttpReply.text("owner and name are required", "text/plain", 400);
    const counter = counters.get(new CounterKey(account(owner), name));
    return HttpReply.json(counter !== null ? counter.value.toString() : "null");
  }

  @event("history")
  incremented(owner: AccountNumber, name: string, value: u64): void {}

  @event("merkle")
  counterReset(owner: AccountNumber, name: string): void {}
}
