import type { AnyType } from '../fracpack/index.js';
import { Action, coreSchema } from '../types/index.js';
import { headServiceSchema, serviceSchemaTypes } from '../types/service-schema.js';
import { TsibaseError } from '../errors.js';
import { FracpackError } from '../fracpack/index.js';

// Actions of the system services as clients pack them (argument tuples are Objects of the
// parameters, in order). Names and parameters follow the system services table of docs/design.md and docs/administration.md §4.3.

const args = (members: Record<string, AnyType>) => coreSchema.typeOf({ Object: members });

const ARGS = {
  'accounts.init': args({}),
  'accounts.newAccount': args({ name: 'AccountNumber', authService: 'AccountNumber', requireMatch: 'bool' }),
  'accounts.setAuthServ': args({ authService: 'AccountNumber' }),
  'auth-sig.newAccount': args({ name: 'AccountNumber', key: 'bytes' }),
  'setcode.setCode': args({ service: 'AccountNumber', vmType: 'u8', vmVersion: 'u8', code: 'bytes' }),
  'setcode.setFlags': args({ service: 'AccountNumber', flags: 'u64' }),
  'http.registerServer': args({ server: 'AccountNumber' }),
  'sites.storeSys': args({ path: 'string', contentType: 'string', content: 'bytes' }),
  'sites.removeSys': args({ path: 'string' }),
  'producers.setProducers': args({ prods: { List: 'Producer' } }),
  'producers.setConsensus': args({ consensus: 'ConsensusData' }),
  'transact.startBoot': args({ bootTransactions: { List: 'Checksum256' } }),
  'transact.finishBoot': args({}),
  'transact.setSnapTime': args({ seconds: 'u32' }),
  'auth-sig.setKey': args({ key: 'bytes' }),
  // psibase's setSchema(ServiceSchema), the schema in HEAD's JSON form (types/service-schema.ts)
  'packages.setSchema': serviceSchemaTypes.typeOf({ Object: { schema: 'ServiceSchema' } }),
} as const;

export type SystemAction = keyof typeof ARGS;

/** Whether `name` (service.method) is a system action clients can pack without asking its service. */
export function isSystemAction(name: string): name is SystemAction {
  return Object.hasOwn(ARGS, name);
}

/** A system action from `sender` with its arguments (JSON or native forms). */
export function systemAction(sender: string | bigint, name: SystemAction, argumentsObject: Record<string, unknown> = {}): Action {
  const [service, method] = name.split('.') as [string, string];
  return Action.unpack(Action.pack({ sender, service, method, rawData: ARGS[name].pack(argumentsObject) }));
}

/**
 * packages::setSchema from `sender` storing `schemaText` (a schema's JSON, in our SDK's form or
 * psibase HEAD's), packed as psibase's ServiceSchema. Throws SERVICE_SCHEMA_MALFORMED when the
 * text is not JSON or is not a schema.
 */
export function setSchemaAction(sender: string | bigint, schemaText: string): Action {
  let json: unknown;
  try {
    json = JSON.parse(schemaText);
  } catch (err) {
    throw new TsibaseError('SERVICE_SCHEMA_MALFORMED', `the service schema is not JSON: ${(err as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new TsibaseError('SERVICE_SCHEMA_MALFORMED', 'the service schema is not a JSON object');
  try {
    return systemAction(sender, 'packages.setSchema', { schema: headServiceSchema(json as Record<string, unknown>) });
  } catch (err) {
    if (err instanceof FracpackError) throw new TsibaseError('SERVICE_SCHEMA_MALFORMED', `the service schema is not a psibase ServiceSchema: ${err.message}`);
    throw err;
  }
}
