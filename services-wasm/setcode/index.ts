// setcode: deploys service code and sets account flags by writing the native code tables
// (privileged). The node admits code as it is written to `codeByHash` (the host ABI's imports,
// the admitted WebAssembly features), so a module no node would run aborts setCode with
// admission's message and is never stored.
//
// Rules:
// - setCode: the sender must be the service account itself (psibase), so an account deploys
//   only its own code; vmType and vmVersion must be 0; empty code removes the account's code.
// - setFlags: the sender must be setcode itself (psibase). Flags grant power over the whole
//   chain (privileged: write native tables and act as any sender; verify: check proofs), so
//   only the boot (before auth is on) or whoever setcode's auth service lets act as setcode may
//   set them.

import { AccountNumber, Checksum256, check, getReceiver, getSender, sha256 } from "../sdk/index";
import { hasCode } from "../sdk/native/index";
import { addCodeReference, loadCodeRow, putCodeRow, releaseCodeReference } from "./code-store";

@service("setcode")
export class SetCode {
  @action
  setCode(service: AccountNumber, vmType: u8, vmVersion: u8, code: Uint8Array): void {
    check(getSender() == service, "sender must match service account");
    check(vmType == 0 && vmVersion == 0, "unsupported type or version");
    const row = loadCodeRow(service);
    const codeHash = code.length > 0 ? sha256(code) : new Checksum256();
    if (row.codeHash.equals(codeHash) && row.vmType == vmType && row.vmVersion == vmVersion) return;
    if (hasCode(row)) releaseCodeReference(row.codeHash, row.vmType, row.vmVersion);
    row.codeHash = codeHash;
    row.vmType = vmType;
    row.vmVersion = vmVersion;
    putCodeRow(row);
    if (hasCode(row)) addCodeReference(codeHash, vmType, vmVersion, code);
  }

  @action
  setFlags(service: AccountNumber, flags: u64): void {
    check(getSender() == getReceiver(), "only setcode may set flags");
    const row = loadCodeRow(service);
    row.flags = flags;
    putCodeRow(row);
  }
}
