// POST /common/pack/SignedTransaction: a SignedTransaction in JSON, its `transaction` either the
// Transaction object or the hex of the packed transaction (docs/serving.md §2), packed to fracpack. JSON
// the client got wrong is a JSON problem (problems.ts): with one, nothing is packed.

import { JsonKind, JsonValue, pack, unpack } from "../sdk/index";
import { asBytes, asList, asObject, asRecord, jsonProblem, jsonProblemSeen } from "../sdk/json/index";
import { SignedTransaction, Transaction } from "../transact/transaction";

function packedTransaction(json: JsonValue | null): Uint8Array {
  if (json !== null && json.kind == JsonKind.String) {
    const bytes = asBytes(json, "transaction");
    // Hex that is no packed transaction aborts: fracpack's reader cannot stop half way safely.
    if (!jsonProblemSeen()) unpack<Transaction>(bytes, false, "transaction: the hex is not a packed transaction");
    return bytes;
  }
  const transaction = asRecord<Transaction>(json, "transaction");
  return jsonProblemSeen() ? new Uint8Array(0) : pack<Transaction>(transaction);
}

/** The packed SignedTransaction; empty when a JSON problem was seen. */
export function packSignedTransaction(json: JsonValue): Uint8Array {
  const object = asObject(json, "signed transaction");
  const proofs = object.get("proofs");
  const list = proofs !== null ? asList<Uint8Array>(proofs, "proofs", asBytes) : new Array<Uint8Array>();
  if (object.get("transaction") === null) jsonProblem("signed transaction: transaction is missing");
  const transaction = packedTransaction(object.get("transaction"));
  return jsonProblemSeen() ? new Uint8Array(0) : pack<SignedTransaction>(new SignedTransaction(transaction, list));
}
