export { Writer } from "./writer";
export { Reader } from "./reader";
// What services and the transform's generated code (`__fp.*`) use.
export { pack, unpack, packedProblem, fixedSize, isVariable } from "./codec";
export { MemberWriter, MemberReader, OBJECT, STRUCT, VARIANT } from "./record";
export { recordFixedSize, recordIsVariable, writeRecordSlot, writeRecordHeap, writeRecordFull, writeRecordKey, readRecordSlot, readRecordFull } from "./record";
export { encodeKey } from "./key";
export { Option, some, none } from "./option";
export { Packed } from "./packed";
export { Checksum256 } from "./checksum";
