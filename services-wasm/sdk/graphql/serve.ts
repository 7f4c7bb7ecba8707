// The /graphql endpoint a service opts into inside its serveSys (docs/serving.md §4.4, §4.7): GET
// answers the schema (SDL); a query comes as `?query=` (GET or POST, with `operationName` and
// JSON `variables` parameters), as a POST body of type application/graphql, or as a POST body of
// type application/json `{query, variables, operationName}`. Other requests are declined (null).
// Queries may introspect the schema (introspection.ts), as GraphQL clients begin by doing.
// Malformed JSON aborts with its position, as the SDK's JSON parser does everywhere.

import { HttpReply } from "../http/reply";
import { HttpRequest } from "../http/request";
import { withCors } from "../http/cors";
import { JsonKind, JsonValue } from "../json/value";
import { parseJson } from "../json/parse";
import { check } from "../abort";
import { GqlObject, executeQueryUtf8 } from "./execute";
import { IntrospectedQuery } from "./introspection";

function mediaType(contentType: string): string {
  const semicolon = contentType.indexOf(";");
  return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase();
}

/** A member that must be a string when present; null when absent or null. */
function optionalString(json: JsonValue, name: string): string | null {
  const v = json.get(name);
  if (v === null || v.kind == JsonKind.Null) return null;
  check(v.kind == JsonKind.String, "graphql: " + name + " must be a string");
  return v.text;
}

function answer(root: GqlObject, query: string, operationName: string | null, variables: JsonValue | null): HttpReply {
  check(variables === null || variables.kind == JsonKind.Object || variables.kind == JsonKind.Null, "graphql: variables must be an object");
  return withCors(HttpReply.bytes("application/json", executeQueryUtf8(root, query, operationName, variables)));
}

/**
 * Serves `/graphql` for the query root `served` whose schema is `sdl`, introspection
 * (`__schema`, `__type`) answered from `sdl`; null for other requests.
 */
export function serveGraphQL(request: HttpRequest, served: GqlObject, sdl: string): HttpReply | null {
  if (request.path() != "/graphql") return null;
  const root = new IntrospectedQuery(served, sdl);
  const query = request.queryParam("query");
  if (query !== null && (request.method == "GET" || request.method == "POST")) {
    const variables = request.queryParam("variables");
    return answer(root, query, request.queryParam("operationName"), variables !== null ? parseJson(variables) : null);
  }
  if (request.method == "GET") return withCors(HttpReply.text(sdl));
  if (request.method != "POST") return null;
  const type = mediaType(request.contentType);
  if (type == "application/graphql") return answer(root, request.bodyText(), null, null);
  if (type != "application/json") return null;
  const json = parseJson(request.bodyText());
  check(json.kind == JsonKind.Object, "graphql: the body must be a JSON object");
  const text = optionalString(json, "query");
  check(text !== null, "graphql: the body has no query");
  return answer(root, text!, optionalString(json, "operationName"), json.get("variables"));
}
