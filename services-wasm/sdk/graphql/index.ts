// What the transform's generated GraphQL code uses (imported as `__gql`): the executor, the
// argument checks and decoders, the value writers, connections and the /graphql endpoint.

export { Execution, FieldRequest, GqlObject } from "./execute";
export { Value } from "./ast";
export {
  acceptArguments, accountValue, boolValue, bytesValue, checksumValue, floatValue, integerValue, nullableValue, optionValue,
  stringValue,
} from "./arguments";
export {
  RecordObject, writeAccount, writeDecimal, writeHex, writeList, writeMethod, writeNullable, writeNumber, writeOption, writeRecord,
  writeTimePointSec, writeTimePointUSec,
} from "./values";
export { writeConnection } from "./connection";
export { serveGraphQL } from "./serve";
export { HttpRequest } from "../http/request";
export { HttpReply } from "../http/reply";
