// tokens: one fungible token per deployment. The service account is the issuer: `init` opens
// the ledger, `mint` credits new tokens (issuer only), `transfer` moves them between existing
// accounts and records a history event. Balances are served over HTTP (GET /balance) and, with
// the token's events (events.ts), over GraphQL at /graphql.

import {
  AccountNumber, HttpReply, HttpRequest, Index, MergedQuery, Option, Table, account, check, checkHttpServerCaller, getSender,
  getService, jsonString, mergeSdl, serveGraphQL, serveSimpleUi, withCors,
} from "../sdk/index";
import { AccountsActor } from "../accounts/index";
import { TokenEvents, TOKEN_EVENTS_SDL } from "./events";

@fracpack
export class Balance {
  constructor(public owner: AccountNumber = 0, public amount: u64 = 0) {}
}

@fracpack
export class Supply {
  constructor(public id: u8 = 0, public total: u64 = 0) {}
}

const balances = new Table<Balance, AccountNumber>(1, (b: Balance): AccountNumber => b.owner);
const supplies = new Table<Supply, u8>(2, (s: Supply): u8 => s.id);

function balanceOf(owner: AccountNumber): u64 {
  const row = balances.get(owner);
  return row !== null ? row.amount : 0;
}

function setBalance(owner: AccountNumber, amount: u64): void {
  if (amount == 0) balances.remove(owner);
  else balances.put(new Balance(owner, amount));
}

/** The GraphQL query root of the token's state (docs/serving.md §4.7), served at /graphql with its events. */
@query
export class TokensQuery {
  /** Every balance, by owner (gt/ge/lt/le take account names). */
  get balances(): Index<Balance, AccountNumber> {
    return balances.primary;
  }

  /** The balance row of `owner`; null when it holds no tokens. */
  balance(owner: AccountNumber): Balance | null {
    return balances.get(owner);
  }

  /** The token's supply; null before init. */
  supply(): Supply | null {
    return supplies.get(0);
  }
}

@lazy const GRAPHQL_SDL = mergeSdl([TokensQuery.SDL, TOKEN_EVENTS_SDL]);

function supply(): Supply {
  const row = supplies.get(0);
  check(row !== null, "the token is not initialized (run init)");
  return row!;
}

@service("tokens")
export class Tokens {
  /** Opens the ledger; sent by the service account (deploy --init). */
  @action
  init(): void {
    check(getSender() == getService(), "only the service account initializes the token");
    check(supplies.get(0) === null, "the token is already initialized");
    supplies.put(new Supply(0, 0));
  }

  /** Credits `amount` new tokens to `to`; the issuer (the service account) only. */
  @action
  mint(to: AccountNumber, amount: u64): void {
    check(getSender() == getService(), "only the issuer may mint");
    check(amount > 0, "amount must be positive");
    check(new AccountsActor().exists(to), "recipient account does not exist");
    const s = supply();
    check(s.total <= u64.MAX_VALUE - amount, "total supply would overflow");
    s.total += amount;
    supplies.put(s);
    setBalance(to, balanceOf(to) + amount);
    this.minted(to, amount);
  }

  /** Moves `amount` of the sender's tokens to `to`. */
  @action
  transfer(to: AccountNumber, amount: u64, memo: string): void {
    const from = getSender();
    supply();
    check(amount > 0, "amount must be positive");
    check(to != from, "cannot transfer to self");
    check(memo.length <= 80, "memo is longer than 80 characters");
    check(new AccountsActor().exists(to), "recipient account does not exist");
    const have = balanceOf(from);
    check(have >= amount, "insufficient balance");
    setBalance(from, have - amount);
    setBalance(to, balanceOf(to) + amount);
    this.transferred(from, to, amount, memo);
  }

  @action
  balance(owner: AccountNumber): u64 {
    return balanceOf(owner);
  }

  /**
   * GET /balance?account=<name> answers the balance as a JSON string; /graphql the balances
   * (TokensQuery) and the token's events (./events.ts); plus the simple UI.
   */
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const ui = serveSimpleUi(this, request, true);
    if (ui !== null) return ui;
    const graphql = serveGraphQL(request, new MergedQuery([new TokensQuery().graphqlRoot(), new TokenEvents<Tokens>(this)]), GRAPHQL_SDL);
    if (graphql !== null) return graphql;
    if (request.method != "GET" || request.path() != "/balance") return null;
    const owner = request.queryParam("account");
    if (owner === null) return HttpReply.text("account is required", "text/plain", 400);
    return withCors(HttpReply.json(jsonString(balanceOf(account(owner)).toString())));
  }

  @event("history")
  minted(to: AccountNumber, amount: u64): void {}

  @event("history")
  transferred(from: AccountNumber, to: AccountNumber, amount: u64, memo: string): void {}
}
