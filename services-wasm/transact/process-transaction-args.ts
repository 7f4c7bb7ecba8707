import { Checksum256 } from "../sdk/index";

/** What the node passes to processTransaction (docs/system-services.md). */
@fracpack
export class ProcessTransactionArgs {
  constructor(
    /** The packed Transaction, exactly as signed. */
    public transaction: Uint8Array = new Uint8Array(0),
    /** sha256 of `transaction`. */
    public id: Checksum256 = new Checksum256(),
    public speculative: bool = false,
  ) {}
}
