// The host-owned native tables services read (and privileged services write): keys, code rows,
// the status row. Kept out of the SDK's index so services that declare their own records of
// these names still build.

export { NativeTable, NATIVE_PREFIX_LENGTH, nativeTablePrefix, nativeKeyOf, statusKey, codeKey, codeByHashKey } from "./keys";
export { CodeRow, CodeByHashRow, getCodeRow, hasCode, accountHasCode, isVerify } from "./code";
export {
  StatusRow, BlockHeader, BlockInfo, BlockHeaderCode, JointConsensus, PendingConsensus, Consensus,
  ConsensusData, CftConsensus, BftConsensus, Producer, BlockHeaderAuthAccount, WasmConfig, VMOptions,
  getStatus, putStatus,
} from "./status";
