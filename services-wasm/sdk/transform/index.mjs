// The SDK's asc transform (`--transform services-wasm/sdk/transform/index.mjs`). After parsing it
//   1. turns every @service class into dispatch code, argument classes and an Actor (services.mjs),
//   2. adds the fracpack protocol to every @fracpack / @struct / @variant class (records.mjs),
//   3. gives every service its schema's action templates (`__actionTemplates()`) and JSON
//      decoding of its actions' arguments (`__packAction`, records' `__fpFromJson`; json.mjs),
//   4. gives every `@query` class and the records it reaches GraphQL resolvers and a schema (graphql.mjs),
//   5. imports the SDK modules the generated code uses into each file it touched;
// after compiling it embeds the entry service's schema as the custom section `service-schema`, and
// the compiled functions' source lines as `tsibase.functions` (functions.mjs), for the build.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeKind, SourceKind } from 'assemblyscript';
import { Transform } from 'assemblyscript/transform';
import { appendMembers, appendStatements, decoratorName, methods, sourceError } from './ast.mjs';
import { Record, takeRecordKind } from './records.mjs';
import { serviceSchema } from './schema.mjs';
import { declaredTables } from './tables.mjs';
import { Service } from './services.mjs';
import { actionTemplates } from './templates.mjs';
import { JsonDecoding } from './json.mjs';
import { eventSchemaMember } from './events.mjs';
import { FUNCTIONS_SECTION, sourceFunctions } from './functions.mjs';
import { generateGraphQL } from './graphql.mjs';

const SDK_DIR = fileURLToPath(new URL('..', import.meta.url));
/**
 * asc's name of the SDK's files when a project imports it as the package `tsibase/sdk`
 * (`tsibase build`); services in this repository import it relatively (services-wasm/sdk).
 */
const SDK_PACKAGE_PREFIX = '~lib/tsibase/sdk/';
/** SDK folder -> the name generated code imports it as. */
const IMPORT_NAMES = { fracpack: '__fp', service: '__svc', json: '__json', graphql: '__gql' };
export const SCHEMA_SECTION = 'service-schema';

/** The project's files and the SDK's (a library to asc when imported as a package, but with records to generate). */
function isUserSource(source) {
  return source.sourceKind === SourceKind.User || source.sourceKind === SourceKind.UserEntry || source.normalizedPath.startsWith(SDK_PACKAGE_PREFIX);
}

function topLevelDeclarations(source, kind) {
  // `export class X` and `class X` are both plain declarations at the top level in the AST.
  return source.statements.filter((s) => s.kind === kind);
}

export default class SdkTransform extends Transform {
  afterParse(parser) {
    const sources = parser.sources.filter(isUserSource);
    // source -> the SDK modules its generated code uses
    const needs = new Map();
    const need = (source, ...modules) => needs.set(source, new Set([...(needs.get(source) ?? []), ...modules]));

    const services = [];
    for (const source of sources) {
      for (const classDecl of topLevelDeclarations(source, NodeKind.ClassDeclaration)) {
        const service = Service.take(classDecl, source);
        if (!service) {
          this.checkNoStrayMethodDecorators(classDecl);
          continue;
        }
        service.generate(parser);
        services.push(service);
        need(source, 'fracpack', 'service', 'json');
      }
    }

    const records = new Map();
    for (const source of sources) {
      for (const classDecl of topLevelDeclarations(source, NodeKind.ClassDeclaration)) {
        const kind = takeRecordKind(classDecl);
        if (!kind) continue;
        const record = new Record(classDecl, source, kind);
        const clash = records.get(record.name);
        if (clash) throw sourceError(classDecl, `record class ${record.name} is also declared in ${clash.source.normalizedPath}`);
        records.set(record.name, record);
        record.generate(parser);
        need(source, 'fracpack');
      }
    }

    const aliases = this.typeAliases(sources);
    generateGraphQL(parser, sources, records, aliases, need);
    const json = new JsonDecoding(records, aliases);
    const decodable = new Set();
    const schemas = new Map();
    for (const service of services) {
      // A service's own files: those of its folder (another service's imported for a call are not).
      const folder = path.posix.dirname(service.source.normalizedPath) + '/';
      const ownSources = sources.filter((s) => s.normalizedPath.startsWith(folder) && (s === service.source || !services.some((o) => o !== service && o.source === s)));
      const schema = serviceSchema(service, records, aliases, declaredTables(ownSources));
      schemas.set(service, schema);
      // For the simple UI helper (sdk/http/simple-ui.ts); compiled only into services that use it.
      appendMembers(parser, service.source, service.classDecl, `__actionTemplates(): string { return ${JSON.stringify(actionTemplates(schema))}; }`);
      appendMembers(parser, service.source, service.classDecl, eventSchemaMember(schema));
      json.generateService(parser, service);
      for (const name of [...Object.keys(schema.types), ...service.actions.map((a) => a.argsClass)]) {
        if (records.has(name)) decodable.add(records.get(name));
      }
    }
    for (const record of decodable) {
      json.generateRecord(parser, record);
      need(record.source, 'json');
    }

    const sdkAsPackage = parser.sources.some((s) => s.normalizedPath.startsWith(SDK_PACKAGE_PREFIX));
    for (const [source, modules] of needs) this.importSdk(parser, source, modules, sdkAsPackage);

    const entryServices = services.filter((s) => s.source.sourceKind === SourceKind.UserEntry);
    if (entryServices.length > 1) throw sourceError(entryServices[1].classDecl, 'an entry file declares at most one @service class');
    this.schema = entryServices.length ? schemas.get(entryServices[0]) : null;
  }

  afterInitialize(program) {
    this.program = program;
  }

  afterCompile(module) {
    if (this.schema) module.addCustomSection(SCHEMA_SECTION, new TextEncoder().encode(JSON.stringify(this.schema)));
    module.addCustomSection(FUNCTIONS_SECTION, new TextEncoder().encode(JSON.stringify(sourceFunctions(this.program))));
  }

  /**
   * Imports SDK modules for generated code, under the names IMPORT_NAMES gives them, the way the
   * program reaches the SDK (each file must come under one name, or asc compiles it twice).
   */
  importSdk(parser, source, modules, sdkAsPackage) {
    const from = path.dirname(path.resolve(this.baseDir, source.normalizedPath));
    const specifier = (module) => {
      if (sdkAsPackage) return `${SDK_PACKAGE_PREFIX.slice('~lib/'.length)}${module}/index`;
      const relative = path.relative(from, path.join(SDK_DIR, module, 'index')).split(path.sep).join('/');
      return relative.startsWith('.') ? relative : `./${relative}`;
    };
    const imports = [...modules].map((module) => `import * as ${IMPORT_NAMES[module]} from "${specifier(module)}";`);
    appendStatements(parser, source, imports.join('\n'));
  }

  /** @action and @event left on a class mean it is not a @service: AssemblyScript would ignore them. */
  checkNoStrayMethodDecorators(classDecl) {
    for (const method of methods(classDecl)) {
      const stray = (method.decorators ?? []).map(decoratorName).find((name) => name === 'action' || name === 'event');
      if (stray) throw sourceError(method, `${classDecl.name.text}.${method.name.text}: @${stray} works only in a @service class`);
    }
  }

  /** `type Name = ...` declarations, so a schema can see through user aliases. */
  typeAliases(sources) {
    const aliases = new Map();
    for (const source of sources) {
      for (const declaration of topLevelDeclarations(source, NodeKind.TypeDeclaration)) aliases.set(declaration.name.text, declaration.type);
    }
    return aliases;
  }
}
