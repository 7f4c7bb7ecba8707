// packages: the schemas of installed services (docs/system-services.md, packages). A service
// stores its own schema with setSchema (`tsibase deploy` and the boot do it for the services they
// install; services built with psibase's SDK do it in their init), packed as psibase's
// ServiceSchema; `GET /schema?service=<name>` on packages' subdomain answers it as psibase's
// packages service does: the schema in psibase's JSON form, or a 404 naming the service.

import {
  AccountNumber, HttpReply, HttpRequest, Option, Table, check, checkHttpServerCaller, getSender,
  isValidAccountName, account, parseJson, serveIndexPage, some, none, withCors,
} from "../sdk/index";
import { JsonKind, JsonValue } from "../sdk/json/value";
import { TypeResolver } from "../sdk/events/schema-type";
import { InstalledSchema, installedSchemas as schemas } from "../sdk/packages/installed-schemas";
import { ServiceSchema, serviceSchemaJson } from "../sdk/packages/service-schema";

/** A service's schema as it was packed, for getSchema. */
@fracpack
export class PackedSchema {
  constructor(public account: AccountNumber = 0, public schema: ServiceSchema = new ServiceSchema()) {}
}

const packedSchemas = new Table<PackedSchema, AccountNumber>(2, (s: PackedSchema): AccountNumber => s.account);

function member(json: JsonValue, name: string, kind: JsonKind, what: string): JsonValue {
  const value = json.get(name);
  check(value !== null && value.kind == kind, "schema." + name + " must be " + what);
  return value!;
}

/** Every type a schema names resolves (psibase's checkValid): its type map, each action's params and result, each event's type. */
function checkSchema(text: string): void {
  const json = parseJson(text);
  const types = member(json, "types", JsonKind.Object, "an object of named types");
  const actions = member(json, "actions", JsonKind.Object, "an object of actions");
  const resolver = new TypeResolver(types);
  for (let i = 0; i < types.keys.length; i++) {
    check(resolver.resolve(types.values[i]) !== null, "schema.types." + types.keys[i] + ": " + resolver.error);
  }
  for (let i = 0; i < actions.keys.length; i++) {
    const action = actions.values[i];
    const params = action.get("params")!;
    check(resolver.resolve(params) !== null, "schema.actions." + actions.keys[i] + ".params: " + resolver.error);
    const result = action.get("result")!;
    if (result.kind != JsonKind.Null) check(resolver.resolve(result) !== null, "schema.actions." + actions.keys[i] + ".result: " + resolver.error);
  }
  const kinds = ["history", "merkle"];
  for (let k = 0; k < kinds.length; k++) {
    const events = json.get(kinds[k])!;
    for (let i = 0; i < events.keys.length; i++) {
      check(resolver.resolve(events.values[i].get("type")!) !== null, "schema." + kinds[k] + "." + events.keys[i] + ": " + resolver.error);
    }
  }
}

@service("packages")
export class Packages {
  /**
   * Stores the sender's schema, replacing any earlier one; like psibase, it is filed under the
   * sender whatever it names. Every type it names must resolve.
   */
  @action
  setSchema(schema: ServiceSchema): void {
    const sender = getSender();
    const text = serviceSchemaJson(schema);
    checkSchema(text);
    schemas.put(new InstalledSchema(sender, text));
    packedSchemas.put(new PackedSchema(sender, schema));
  }

  /** The schema `service` stored, if any. */
  @action
  getSchema(service: AccountNumber): Option<ServiceSchema> {
    const row = packedSchemas.get(service);
    return row !== null ? some<ServiceSchema>(row.schema) : none<ServiceSchema>();
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
