export { Writer } from "./writer";
export { Reader } from "./reader";
export {
  pack, unpack, writeFull, readFull, writeSlot, writeHeap, readSlot,
  fixedSize, isVariable, isOptional, isAbsent,
} from "./codec";
export { MemberWriter, MemberReader, OBJECT, STRUCT, VARIANT } from "./record";
export { writeKey, encodeKey } from "./key";
export { Option, some, none } from "./option";
export { Checksum256 } from "./checksum";
