// packages: the schemas of installed services (docs/system-services.md, packages). A service
// stores its own schema with setSchema (`tsibase deploy` and the boot do it for the services they
// install); `GET /schema?service=<name>` on packages' subdomain answers it as psibase's packages
// service does: the schema JSON, or a 404 naming the service.

import {
  AccountNumber, HttpReply, HttpRequest, Option, check, checkHttpServerCaller, getSender,
  isValidAccountName, account, parseJson, serveIndexPage, withCors,
} from "../sdk/index";
import { JsonKind, JsonValue } from "../sdk/json/value";
import { TypeResolver } from "../sdk/events/schema-type";
import { InstalledSchema, installedSchemas as schemas } from "../sdk/packages/installed-schemas";


function member(json: JsonValue, name: string, kind: JsonKind, what: string): JsonValue {
  const value = json.get(name);
  check(value !== null && value.kind == kind, "schema." + name + " must be " + what);
  return value!;
}

/** Every type a schema names resolves (psibase's checkValid): its type map and each action's params and result. */
function checkSchema(text: string): void {
  const json = parseJson(text);
  check(json.kind == JsonKind.Object, "a schema is a JSON object");
  member(json, "service", JsonKind.String, "the service's name");
  const types = member(json, "types", JsonKind.Object, "an object of named types");
  const actions = member(json, "actions", JsonKind.Object, "an object of actions");
  const resolver = new TypeResolver(types);
  for (let i = 0; i < types.keys.length; i++) {
    check(resolver.resolve(types.values[i]) !== null, "schema.types." + types.keys[i] + ": " + resolver.error);
  }
  for (let i = 0; i < actions.keys.length; i++) {
    const action = actions.values[i];
    const params = action.kind == JsonKind.Object ? action.get("params") : null;
    check(params !== null && resolver.resolve(params) !== null, "schema.actions." + actions.keys[i] + ".params: " + (params === null ? "missing" : resolver.error));
    const result = action.get("result");
    if (result !== null && result.kind != JsonKind.Null) {
      check(resolver.resolve(result) !== null, "schema.actions." + actions.keys[i] + ".result: " + resolver.error);
    }
  }
}

@service("packages")
export class Packages {
  /**
   * Stores the sender's schema (psibase's ServiceSchema as JSON text, docs/formats.md §2),
   * replacing any earlier one; like psibase, it is filed under the sender whatever it names.
   */
  @action
  setSchema(schema: string): void {
    const sender = getSender();
    checkSchema(schema);
    schemas.put(new InstalledSchema(sender, schema));
  }

  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    const page = serveIndexPage(request, "packages", "The schemas of installed services: GET /schema?service=<name>.", ["/schema?service=packages"]);
    if (page !== null) return page;
    if (request.method != "GET" || request.path() != "/schema") return null;
    const param = request.queryParam("service");
    const name = param !== null ? param : "";
    const row = isValidAccountName(name) && name.length > 0 ? schemas.get(account(name)) : null;
    if (row === null) return withCors(HttpReply.text("No schema for service '" + name + "'", "text/html", 404));
    return withCors(HttpReply.json(row.schema));
  }
}
