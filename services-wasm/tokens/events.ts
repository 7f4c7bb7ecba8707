// The token's events over GraphQL (docs/serving.md §4.7, §6): `event` decodes one of its events by db and
// id; `transfers` and `mints` page its history events through the events service, filtered by
// account and by a memo LIKE pattern (passed as parameters, never as condition text).

import { Execution, FieldRequest, GqlObject, accountName, getService } from "../sdk/index";
import { EventQuery, writeEventDecoding } from "../sdk/events/index";
import { acceptArguments, nullableValue, stringValue } from "../sdk/graphql/arguments";

export const TOKEN_EVENTS_SDL = `type Query {
  event(db: Float!, id: String!): EventDecoding!
  transfers(account: String, memo: String, first: Float, last: Float, before: String, after: String): TransferredConnection
  mints(to: String, first: Float, last: Float, before: String, after: String): MintedConnection
}
type EventDecoding {
  event_db: Float!
  event_id: String!
  event_found: Boolean!
  event_service: String!
  event_supported_service: Boolean!
  event_type: String!
  event_unpack_ok: Boolean!
  event_all_content: String
  from: String
  to: String
  amount: String
  memo: String
}
type Transferred { from: String! to: String! amount: String! memo: String! }
type TransferredEdge { node: Transferred! cursor: String! }
type TransferredConnection { edges: [TransferredEdge!]! pageInfo: PageInfo! }
type Minted { to: String! amount: String! }
type MintedEdge { node: Minted! cursor: String! }
type MintedConnection { edges: [MintedEdge!]! pageInfo: PageInfo! }
type PageInfo { hasPreviousPage: Boolean! hasNextPage: Boolean! startCursor: String endCursor: String }
`;

const PAGING = ["first", "last", "before", "after"];
const PAGING_TYPES = ["Float", "Float", "String", "String"];

/** The events table `history.<this service>.<event>` (the token may run under any account). */
function historyTable(event: string): string {
  return "history." + accountName(getService()) + "." + event;
}

/** The query root of the token's events; `S` is the Tokens service class. */
export class TokenEvents<S> extends GqlObject {
  constructor(private service: S) {
    super();
  }

  typeName(): string {
    return "Query";
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    if (field.name == "event") writeEventDecoding<S>(this.service, field, exec);
    else if (field.name == "transfers") this.transfers(field, exec);
    else if (field.name == "mints") this.mints(field, exec);
    else return false;
    return true;
  }

  /** Transfers from or to `account`, with a memo LIKE `memo`, in event order. */
  private transfers(field: FieldRequest, exec: Execution): void {
    if (!acceptArguments(field, exec, "Query.transfers", ["account", "memo"].concat(PAGING), ["String", "String"].concat(PAGING_TYPES))) return;
    const account = nullableValue<string>(field.argument("account"), "account", exec, stringValue);
    const memo = nullableValue<string>(field.argument("memo"), "memo", exec, stringValue);
    const conditions = new Array<string>();
    const params = new Array<string>();
    if (account !== null) {
      conditions.push("(\"from\" = ? OR \"to\" = ?)");
      params.push(account);
      params.push(account);
    }
    if (memo !== null) {
      conditions.push("memo LIKE ?");
      params.push(memo);
    }
    const query = new EventQuery(historyTable("transferred")).condition(conditions.join(" AND "), params).pageBy(field, exec);
    if (!exec.failed) query.writeConnection(exec, "Transferred");
  }

  /** Mints to `to`, in event order. */
  private mints(field: FieldRequest, exec: Execution): void {
    if (!acceptArguments(field, exec, "Query.mints", ["to"].concat(PAGING), ["String"].concat(PAGING_TYPES))) return;
    const to = nullableValue<string>(field.argument("to"), "to", exec, stringValue);
    const query = new EventQuery(historyTable("minted")).condition(to !== null ? "\"to\" = ?" : "", to !== null ? [to] : []).pageBy(field, exec);
    if (!exec.failed) query.writeConnection(exec, "Minted");
  }
}
