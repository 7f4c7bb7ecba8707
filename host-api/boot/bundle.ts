import { TsibaseError } from '../errors.js';
import { compileSchema, type ValueOf } from '../fracpack/index.js';
import { CORE_SCHEMA } from '../types/schema.js';

// The boot bundle (docs/bundle.md): one fracpack file with every service a network starts
// with, its flags, whether genesis installs it, its HTTP registration, init actions and the
// site files it serves.

const BUNDLE_SCHEMA = {
  ...CORE_SCHEMA,
  SiteFile: { Object: { path: 'string', contentType: 'string', content: 'bytes' } },
  BundleService: {
    Object: {
      account: 'AccountNumber',
      flags: 'u64',
      code: 'bytes',
      genesis: 'bool',
      server: { Option: 'AccountNumber' },
      initActions: { List: 'Action' },
      files: { List: 'SiteFile' },
    },
  },
  Bundle: { Object: { format: 'string', version: 'u32', services: { List: 'BundleService' } } },
} as const;

export const BUNDLE_FORMAT = 'tsibase-bundle';
export const BUNDLE_VERSION = 1;

// Native forms derived from the schema (fracpack/native-type.ts).
export type SiteFile = ValueOf<typeof BUNDLE_SCHEMA, 'SiteFile'>;
/**
 * `genesis`: installed by the genesis transaction itself (core services) rather than through
 * setcode. `server`: the server registered for this account's subdomain (usually the account itself).
 */
export type BundleService = ValueOf<typeof BUNDLE_SCHEMA, 'BundleService'>;
export type Bundle = ValueOf<typeof BUNDLE_SCHEMA, 'Bundle'>;

/** What packBundle takes: accounts may be names; actions and bytes in their JSON forms too. */
export type BundleServiceInput = Omit<BundleService, 'account' | 'server' | 'initActions'> & {
  account: bigint | string;
  server: bigint | string | null;
  initActions: unknown[];
};

const schema = compileSchema(BUNDLE_SCHEMA);
const codec = schema.type('Bundle');

export function packBundle(bundle: { services: readonly BundleServiceInput[] }): Uint8Array {
  return codec.pack({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, ...bundle });
}

/** Reads a bundle file; throws INVALID_BUNDLE naming the problem. */
export function unpackBundle(bytes: Uint8Array): Bundle {
  let bundle: Bundle;
  try {
    bundle = codec.unpack(bytes, { compat: true });
  } catch (err) {
    throw new BundleError(`not a bundle: ${(err as Error).message}`);
  }
  if (bundle.format !== BUNDLE_FORMAT) throw new BundleError(`not a bundle: format is '${bundle.format}'`);
  if (bundle.version !== BUNDLE_VERSION) throw new BundleError(`bundle version ${bundle.version} is not supported (expected ${BUNDLE_VERSION})`);
  return bundle;
}

export class BundleError extends TsibaseError {
  constructor(message: string) {
    super('INVALID_BUNDLE', message);
  }
}
