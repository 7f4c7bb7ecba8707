// The tsibase service SDK for AssemblyScript. See README.md.

import * as host from "./host";
import * as kv from "./tables/db";
export { host, kv };

export { abort, check } from "./abort";
export { writeConsole } from "./console";
export { verifySignature } from "./crypto";
export { sha256 } from "./sha256";
export { bytesToHex } from "./hex";
export { checkoutSubjective, commitSubjective, abortSubjective } from "./host";

export { AccountNumber, MethodNumber, TimePointSec, TimePointUSec } from "./names/types";
export { account, accountName, isValidAccountName, isValidAccountNumber } from "./names/account";
export { methodNumber } from "./names/method";

export { pack, unpack, packedProblem, Writer, Reader, Option, some, none, Packed, Checksum256, encodeKey } from "./fracpack/index";
export { parseJson, jsonString, JsonValue, JsonKind, startCollectingJsonProblems, stopCollectingJsonProblems } from "./json/index";

export { Action, currentAction } from "./service/action";
export { getService, getReceiver, getSender } from "./service/context";
export { callAction, callActionAs } from "./service/call";

export { DbId, KeyValue } from "./tables/db";
export { Table } from "./tables/table";
export { KeyLocation, TableLocation, WholeDbLocation } from "./tables/location";
export { Index } from "./tables/table-index";
export { Cursor } from "./tables/cursor";

export { HttpHeader } from "./http/header";
export { HttpRequest, QueryParam } from "./http/request";
export { HttpReply } from "./http/reply";
export { httpServer, checkHttpServerCaller } from "./http/server";
export { serveSimpleUi } from "./http/simple-ui";
export { serveIndexPage } from "./http/index-page";
export { Execution, FieldRequest, GqlObject, executeQuery } from "./graphql/execute";
export { serveGraphQL } from "./graphql/serve";
export { MergedQuery, mergeSdl } from "./graphql/merged-query";
export { NodeOf, writeConnection } from "./graphql/connection";
export { withCors } from "./http/cors";
export { badRequest } from "./http/bad-request";
