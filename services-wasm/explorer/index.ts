// explorer: the chain's blocks over GraphQL (docs/system-services.md). Queries read the block log
// (db 3, key = block number as big-endian u32, value = packed Block; docs/chain.md §1.4) and the
// status row's head; nothing is stored, so the service has no actions besides serveSys.

import {
  AccountNumber, Action, Checksum256, DbId, HttpReply, HttpRequest, Index, Option, WholeDbLocation,
  checkHttpServerCaller, kv, pack, serveIndexPage, sha256, unpack,
} from "../sdk/index";
import { Claim } from "../sdk/auth/index";
import { BlockHeader, getStatus } from "../sdk/native/index";
import { SignedTransaction, Transaction } from "../transact/transaction";

/** A block as the block log holds it. */
@fracpack
class LoggedBlock {
  constructor(public header: BlockHeader = new BlockHeader(), public transactions: Array<SignedTransaction> = []) {}
}

/**
 * The same entry read as far as its header: the transactions are left unread (unknown fields of
 * an extensible Object), so a query for headers costs the same for a block of 5 or 5,000.
 */
@fracpack
class LoggedBlockHeader {
  constructor(public header: BlockHeader = new BlockHeader()) {}
}

/**
 * A transaction of a block: its id (sha256 of the packed transaction), the transaction and its
 * proofs (as psibase's SignedTransaction shows them).
 */
@fracpack
export class BlockTransaction {
  constructor(
    public id: Checksum256 = new Checksum256(),
    public transaction: Transaction = new Transaction(),
    public proofs: Array<Uint8Array> = [],
  ) {}

  /** The transaction's actions. */
  @query get actions(): Array<Action> {
    return this.transaction.actions;
  }

  /** The transaction's claims. */
  @query get claims(): Array<Claim> {
    return this.transaction.claims;
  }
}

/**
 * A block: its id, header and transactions (psibase's Block, with the id added). The transactions
 * are read from the block log only when a query asks for them.
 */
@fracpack
export class Block {
  constructor(
    public id: Checksum256 = new Checksum256(),
    public header: BlockHeader = new BlockHeader(),
  ) {}

  /** The block's transactions, with their ids. */
  @query get transactions(): Array<BlockTransaction> {
    return this.logged().transactions.map<BlockTransaction>((signed: SignedTransaction): BlockTransaction => transactionOf(signed));
  }

  /** The number of transactions, without listing them. */
  @query get transactionCount(): u32 {
    return <u32>this.logged().transactions.length;
  }

  private logged(): LoggedBlock {
    return unpack<LoggedBlock>(blockLog.entry(this.header.blockNum)!);
  }
}

/** docs/chain.md §1.2: sha256 of the header packed without authCode, its first four bytes the number (big-endian). */
function blockIdOf(header: BlockHeader): Checksum256 {
  const authCode = header.authCode;
  header.authCode = null;
  const id = sha256(pack<BlockHeader>(header));
  header.authCode = authCode;
  store<u32>(id.bytes.dataStart, bswap<u32>(header.blockNum));
  return id;
}

function transactionOf(signed: SignedTransaction): BlockTransaction {
  return new BlockTransaction(sha256(signed.transaction), unpack<Transaction>(signed.transaction), signed.proofs);
}

/** The block log as an index of blocks by number: the whole of db 3, each entry shown as a Block. */
class BlockLog extends Index<Block, u32> {
  constructor() {
    super(new WholeDbLocation(DbId.blockLog), 0, (block: Block): u32 => block.header.blockNum);
  }

  /** The block log's entry for block `num`, packed, or null. */
  entry(num: u32): Uint8Array | null {
    return kv.get(this.location.db, this.keyBytes(num));
  }

  rowOf(value: Uint8Array): Block {
    const header = unpack<LoggedBlockHeader>(value).header;
    return new Block(blockIdOf(header), header);
  }
}

const blockLog = new BlockLog();

/** The query root (type Query). */
@query
export class ExplorerQuery {
  /**
   * The blocks by number, as psibase's explorer pages them: ge/gt/le/lt bound the numbers,
   * first/after page from the oldest, last/before from the head; cursors are the block number
   * as 8 hex digits.
   */
  get blocks(): Index<Block, u32> {
    return blockLog;
  }

  /** The newest block; null before boot. */
  get headBlock(): Block | null {
    const head = getStatus().head;
    return head !== null ? blockLog.get(head.header.blockNum) : null;
  }

  /** The block with this number, if the log has it. */
  block(num: u32): Block | null {
    return blockLog.get(num);
  }
}

@service("explorer")
export class Explorer {
  /** GET /graphql: the schema; queries by GET or POST (docs/serving.md §4.4). */
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const page = serveIndexPage(request, "explorer", "The chain's blocks and their transactions, over GraphQL.", ["/graphql"]);
    if (page !== null) return page;
    return new ExplorerQuery().serveGraphQL(request);
  }
}
