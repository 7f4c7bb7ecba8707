// The wire types of the auth interface (docs/administration.md §2 "Transact structures", docs/formats.md §6).

import { AccountNumber, MethodNumber } from "../names/types";

/** Proof material a transaction carries; `service` is the verify service that checks its proof. */
@fracpack
export class Claim {
  constructor(public service: AccountNumber = 0, public rawData: Uint8Array = new Uint8Array(0)) {}

  equals(other: Claim): bool {
    return this.service == other.service
      && this.rawData.length == other.rawData.length
      && memory.compare(this.rawData.dataStart, other.rawData.dataStart, this.rawData.length) == 0;
  }
}

/** An action of a service; an empty (0) service or method is a wildcard. */
@fracpack
export class ServiceMethod {
  constructor(public service: AccountNumber = 0, public method: MethodNumber = 0) {}
}
