// explorer: the chain's blocks over GraphQL (docs/chain.md's "explorer: block GraphQL"). Queries
// read the block log (db 3, key = block number as big-endian u32, value = packed Block) and
// the status row's head; nothing is stored, so the service has no actions besides serveSys.

import {
  AccountNumber, Action, Checksum256, DbId, HttpReply, HttpRequest, Option, checkHttpServerCaller,
  encodeKey, pack, sha256, unpack,
} from "../sdk/index";
import { get } from "../sdk/tables/db";
import { Claim } from "../sdk/auth/index";
import { BlockHeader, getStatus } from "../sdk/native/index";
import { SignedTransaction, Transaction } from "../transact/transaction";

@fracpack
class Block {
  constructor(public header: BlockHeader = new BlockHeader(), public transactions: Array<SignedTransaction> = []) {}
}

/** A transaction of a block: its id (sha256 of the packed transaction) and what it did. */
@fracpack
export class BlockTransaction {
  constructor(
    public id: Checksum256 = new Checksum256(),
    public actions: Array<Action> = [],
    public claims: Array<Claim> = [],
  ) {}
}

/** A block: its id, header and transactions. */
@fracpack
export class BlockView {
  constructor(
    public id: Checksum256 = new Checksum256(),
    public header: BlockHeader = new BlockHeader(),
    public transactions: Array<BlockTransaction> = [],
  ) {}

  /** The number of transactions, without listing them. */
  @query get transactionCount(): u32 {
    return <u32>this.transactions.length;
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
  const trx = unpack<Transaction>(signed.transaction);
  return new BlockTransaction(sha256(signed.transaction), trx.actions, trx.claims);
}

function blockByNumber(num: u32): BlockView | null {
  const packed = get(DbId.blockLog, encodeKey<u32>(num));
  if (packed === null) return null;
  const block = unpack<Block>(packed);
  return new BlockView(blockIdOf(block.header), block.header, block.transactions.map<BlockTransaction>((signed: SignedTransaction): BlockTransaction => transactionOf(signed)));
}

/** The query root (type Query). */
@query
export class ExplorerQuery {
  /** The newest block; null before boot. */
  get headBlock(): BlockView | null {
    const head = getStatus().head;
    return head !== null ? blockByNumber(head.header.blockNum) : null;
  }

  /** The block with this number, if the log has it. */
  block(num: u32): BlockView | null {
    return blockByNumber(num);
  }
}

@service("explorer")
export class Explorer {
  /** GET /graphql: the schema; queries by GET or POST (docs/serving.md §4.4). */
  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    return new ExplorerQuery().serveGraphQL(request);
  }
}
