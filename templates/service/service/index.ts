// The __NAME__ service: notes per account, kept in a table, an event per note, a GraphQL query
// of the notes, and the simple UI (GET / lists the actions, POST /pack_action/<action> packs one).

import {
  AccountNumber, Index, HttpRequest, HttpReply, Option, Table, check, checkHttpServerCaller,
  getSender, serveGraphQL, serveSimpleUi,
} from "tsibase/sdk";

/** A row of the notes table. */
@fracpack
export class Note {
  constructor(public owner: AccountNumber = 0, public text: string = "") {}
}

/** Notes are kept one per account: a new one replaces the old. */
const notes = new Table<Note, AccountNumber>(1, (n: Note): AccountNumber => n.owner);

/** The GraphQL query root, served at /graphql. */
@query
export class __CLASS__Query {
  /** Every note, by owner. */
  get notes(): Index<Note, AccountNumber> {
    return notes.primary;
  }

  /** The note of `owner`; null when it has none. */
  note(owner: AccountNumber): Note | null {
    return notes.get(owner);
  }
}

@service("__NAME__")
export class __CLASS__ {
  /** Stores `text` as the sender's note; returns its length. */
  @action
  setNote(text: string): u32 {
    check(text.length > 0, "a note needs some text");
    const owner = getSender();
    notes.put(new Note(owner, text));
    this.noteSet(owner, text);
    return <u32>text.length;
  }

  /** The note of `owner`, if it has one. */
  @action
  getNote(owner: AccountNumber): string {
    const note = notes.get(owner);
    check(note !== null, "no note");
    return note!.text;
  }

  /** The HTTP interface of __NAME__.<chain host>: the simple UI, then /graphql. */
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const ui = serveSimpleUi(this, request, true);
    if (ui !== null) return ui;
    return serveGraphQL(request, new __CLASS__Query().graphqlRoot(), __CLASS__Query.SDL);
  }

  /** A history event: someone set a note. */
  @event("history")
  noteSet(owner: AccountNumber, text: string): void {}
}
