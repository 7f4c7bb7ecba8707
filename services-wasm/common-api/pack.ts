// POST /common/pack/SignedTransaction: a SignedTransaction in JSON, its `transaction` either the
// Transaction object or the hex of the packed transaction (docs/serving.md §2), packed to fracpack.
// Members left out take their defaults (docs/formats.md §3.1). JSON the client got wrong, hex
// that is no packed transaction included, is a JSON problem (problems.ts): with one, nothing is
// packed.

import { JsonKind, JsonValue, pack, packedProblem } from "../sdk/index";
import { asBytes, asList, asObject, asOption, asRecord, jsonProblem, jsonProblemSeen } from "../sdk/json/index";
import { SignedTransaction, Transaction } from "../transact/transaction";

function bytesList(json: JsonValue | null, what: string): Array<Uint8Array> {
  return asList<Uint8Array>(json, what, asBytes);
}

function packedTransaction(json: JsonValue | null): Uint8Array {
  if (json !== null && json.kind == JsonKind.String) {
    const bytes = asBytes(json, "transaction");
    if (jsonProblemSeen()) return bytes;
    const problem = packedProblem<Transaction>(bytes);
    if (problem !== null) jsonProblem("transaction: the hex is not a packed transaction (" + problem + ")");
    return bytes;
  }
  const transaction = asRecord<Transaction>(json, "transaction");
  return jsonProblemSeen() ? new Uint8Array(0) : pack<Transaction>(transaction);
}

/** The packed SignedTransaction; empty when a JSON problem was seen. */
export function packSignedTransaction(json: JsonValue): Uint8Array {
  const object = asObject(json, "signed transaction");
  const proofs = asList<Uint8Array>(object.get("proofs"), "proofs", asBytes);
  const subjective = asOption<Array<Uint8Array>>(object.get("subjectiveData"), "subjectiveData", bytesList);
  const transaction = packedTransaction(object.get("transaction"));
  return jsonProblemSeen() ? new Uint8Array(0) : pack<SignedTransaction>(new SignedTransaction(transaction, proofs, subjective));
}
