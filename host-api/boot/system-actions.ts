import type { AnyType } from '../fracpack/index.js';
import { Action, coreSchema } from '../types/index.js';

// Actions of the system services as clients pack them (argument tuples are Objects of the
// parameters, in order). Names and parameters follow the system services table of docs/design.md and docs/administration.md §4.3.

const args = (members: Record<string, AnyType>) => coreSchema.typeOf({ Object: members });

const ARGS = {
  'accounts.init': args({}),
  'accounts.newAccount': args({ name: 'AccountNumber', authService: 'AccountNumber', requireNew: 'bool' }),
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
  'packages.setSchema': args({ schema: 'string' }),
} as const;

export type SystemAction = keyof typeof ARGS;

/** A system action from `sender` with its arguments (JSON or native forms). */
export function systemAction(sender: string | bigint, name: SystemAction, argumentsObject: Record<string, unknown> = {}): Action {
  const [service, method] = name.split('.') as [string, string];
  return Action.unpack(Action.pack({ sender, service, method, rawData: ARGS[name].pack(argumentsObject) }));
}
