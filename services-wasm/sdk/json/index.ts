export { JsonKind, JsonValue } from "./value";
export { parseJson } from "./parse";
export { jsonProblem, jsonProblemSeen, startCollectingJsonProblems, stopCollectingJsonProblems } from "./problems";
export {
  Decoder, asInteger, asFloat, asBool, asString, asBytes, asChecksum256, asAccountNumber, asMethodNumber,
  asTimePointSec, asTimePointUSec, asList, asNullable, asOption, asRecord, asObject, alternativeName, noAlternative,
  checkArgumentNames,
} from "./decode";
export { jsonString, jsonText } from "./encode";
