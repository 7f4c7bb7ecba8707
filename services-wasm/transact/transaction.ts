// The transaction wire types (docs/formats.md §6): what transact decodes, checks and dispatches.
// Other services may import this file for them without importing the transact service.

import { TimePointSec, Action, Option } from "../sdk/index";
import { Claim } from "../sdk/auth/index";

/** Tapos flag bit 0: the transaction may be checked but never committed. */
export const DO_NOT_BROADCAST: u16 = 0x0001;

@struct
export class Tapos {
  constructor(
    public expiration: TimePointSec = 0,
    public refBlockSuffix: u32 = 0,
    public flags: u16 = 0,
    public refBlockIndex: u8 = 0,
  ) {}
}

@fracpack
export class Transaction {
  constructor(
    public tapos: Tapos = new Tapos(),
    public actions: Array<Action> = [],
    public claims: Array<Claim> = [],
  ) {}
}

/** A transaction with its proofs, as pushed and as the block log holds it (docs/formats.md §6). */
@fracpack
export class SignedTransaction {
  constructor(
    /** The packed Transaction (its id is the SHA-256 of these bytes). */
    public transaction: Uint8Array = new Uint8Array(0),
    public proofs: Array<Uint8Array> = [],
    public subjectiveData: Option<Array<Uint8Array>> = new Option<Array<Uint8Array>>(),
  ) {}
}
