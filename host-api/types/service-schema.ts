import { compileSchema, type Schema } from '../fracpack/index.js';

// psibase HEAD's ServiceSchema as a fracpack type (docs/formats.md §2): what packages::setSchema
// takes packed and packages answers as JSON at /schema. Its `types` use the type language of
// docs/formats.md §2 itself (psio's AnyType, whose last alternative, a type's name, is written
// untagged); maps are packed as lists of {first, second} and written as JSON objects.

const map = (value: Schema[string]) => ({ Custom: { type: { List: { Object: { first: 'string', second: value } } }, id: 'map' } });
const members = { Custom: { type: { List: { Object: { name: 'string', type: 'SchemaType' } } }, id: 'map' } };

export const SERVICE_SCHEMA_TYPES = {
  SchemaType: {
    Variant: {
      Struct: members,
      Object: members,
      Array: { Object: { type: 'SchemaType', len: 'u64' } },
      List: 'SchemaType',
      Option: 'SchemaType',
      Variant: members,
      Tuple: { List: 'SchemaType' },
      Int: { Object: { bits: 'u32', isSigned: 'bool' } },
      Float: { Object: { exp: 'u32', mantissa: 'u32' } },
      FracPack: 'SchemaType',
      Custom: { Object: { type: 'SchemaType', id: 'string' } },
      '@Type': 'string',
    },
  },
  SchemaFunctionType: { Object: { params: 'SchemaType', result: { Option: 'SchemaType' } } },
  SchemaEventType: { Object: { type: 'SchemaType', access: 'string' } },
  SchemaFieldId: { Object: { path: { List: 'u32' }, transform: { Option: 'string' }, type: { Option: 'SchemaType' } } },
  SchemaTableInfo: { Object: { name: { Option: 'string' }, table: 'u16', type: 'SchemaType', indexes: { List: { List: 'SchemaFieldId' } } } },
  ServiceSchema: {
    Object: {
      service: 'AccountNumber',
      types: map('SchemaType'),
      actions: map('SchemaFunctionType'),
      history: map('SchemaEventType'),
      merkle: map('SchemaEventType'),
      database: { Option: map({ List: 'SchemaTableInfo' }) },
    },
  },
} as const satisfies Schema;

export const serviceSchemaTypes = compileSchema(SERVICE_SCHEMA_TYPES as Schema);

/** A ServiceSchema in psibase's JSON form. */
export type ServiceSchemaJson = Record<string, unknown>;

/** psibase's EventDb kinds: HEAD's schemas have no `ui` events. */
const EVENT_KINDS = ['history', 'merkle'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A service schema in psibase HEAD's JSON form. Schemas our SDK embeds (docs/formats.md §2) give
 * an event as its type alone and have `ui` events; HEAD's give `{type, access}` and have none,
 * and write absent options as null. A schema already in HEAD's form comes back the same.
 */
export function headServiceSchema(schema: ServiceSchemaJson): ServiceSchemaJson {
  const actions: Record<string, unknown> = {};
  for (const [name, action] of Object.entries(isRecord(schema.actions) ? schema.actions : {})) {
    const fn = isRecord(action) ? action : {};
    actions[name] = { params: fn.params, result: fn.result ?? null };
  }
  const out: ServiceSchemaJson = { service: schema.service, types: schema.types ?? {}, actions };
  for (const kind of EVENT_KINDS) {
    const events: Record<string, unknown> = {};
    for (const [name, event] of Object.entries(isRecord(schema[kind]) ? schema[kind] : {})) {
      events[name] = isRecord(event) && 'type' in event ? { type: event.type, access: event.access ?? 'public' } : { type: event, access: 'public' };
    }
    out[kind] = events;
  }
  out.database = schema.database ?? null;
  return out;
}

const serviceSchemaCodec = serviceSchemaTypes.type('ServiceSchema');

/** A schema as psibase writes it: HEAD's form, every value as the JSON mapping writes it (u64 lengths as strings). */
export function canonicalServiceSchema(schema: ServiceSchemaJson): ServiceSchemaJson {
  return serviceSchemaCodec.toJson(serviceSchemaCodec.fromJson(headServiceSchema(schema))) as ServiceSchemaJson;
}
