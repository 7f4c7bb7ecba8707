// POST /common/pack/SignedTransaction: a SignedTransaction in JSON, its `transaction` either the
// Transaction object or the hex of the packed transaction (seed 1 §2), packed to fracpack.

import { JsonKind, JsonValue, check, pack, unpack } from "../sdk/index";
import { asBytes, asList, asObject, asRecord } from "../sdk/json/index";
import { SignedTransaction, Transaction } from "../transact/transaction";

function packedTransaction(json: JsonValue | null): Uint8Array {
  if (json !== null && json.kind == JsonKind.String) {
    const bytes = asBytes(json, "transaction");
    unpack<Transaction>(bytes, false, "transaction: the hex is not a packed transaction");
    return bytes;
  }
  return pack<Transaction>(asRecord<Transaction>(json, "transaction"));
}

export function packSignedTransaction(json: JsonValue): Uint8Array {
  const object = asObject(json, "signed transaction");
  const proofs = object.get("proofs");
  const list = proofs !== null ? asList<Uint8Array>(proofs, "proofs", asBytes) : new Array<Uint8Array>();
  check(object.get("transaction") !== null, "signed transaction: transaction is missing");
  return pack<SignedTransaction>(new SignedTransaction(packedTransaction(object.get("transaction")), list));
}
