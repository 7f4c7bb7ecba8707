import { readFileSync } from 'node:fs';
import { NO_ARGUMENTS, accountNumberFromName, embeddedSchema, methodNumberFromName, setSchemaAction, unpackBundle, type Action, type Bundle, type BundleService } from '../../host-api/index.js';
import { readBuiltService } from '../build/built-service.js';
import { defaultBundlePath } from '../fs/package-paths.js';

// What a booted test chain boots: a bundle (the default one, the system services, unless the
// test names another) and the test's own services after its, installed by the same boot.

/** A service of the test's own, installed at boot as the bundle's non-genesis services are. */
export interface ExtraService {
  readonly account: string;
  /** The module, or the path of a build's `.wasm` (its `.schema.json` beside it is the schema). */
  readonly code: Uint8Array | string;
  /** The service's schema (JSON text), stored with packages::setSchema; by default the build's. */
  readonly schema?: string;
  /** 1n privileged, 2n verify service; 0n unless given. */
  readonly flags?: bigint;
  /** Serve the account's subdomain with its serveSys (http::registerServer). */
  readonly registerServer?: boolean;
  /** Run its init() action, sent by the account, at the end of the boot. */
  readonly init?: boolean;
}

/** The module and schema of `code`: a build's files, or the module given and the schema its build embedded. */
export function serviceCode(code: Uint8Array | string): { code: Uint8Array; schema: string | null } {
  return typeof code === 'string' ? readBuiltService(code) : { code, schema: embeddedSchema(code) };
}

const PACKAGES = accountNumberFromName('packages');

function bundleService(extra: ExtraService, storesSchemas: boolean): BundleService {
  const { code, schema } = serviceCode(extra.code);
  const account = accountNumberFromName(extra.account);
  // The boot stores the embedded schema; one given or beside the module goes after it, and wins.
  const stored = extra.schema ?? schema;
  const initActions: Action[] = storesSchemas && stored !== null && stored !== embeddedSchema(code) ? [setSchemaAction(account, stored)] : [];
  if (extra.init) initActions.push({ sender: account, service: account, method: methodNumberFromName('init'), rawData: NO_ARGUMENTS });
  return { account, flags: extra.flags ?? 0n, code, genesis: false, server: extra.registerServer ? account : null, initActions, files: [] };
}

/** `bundle` (a path, or a bundle; the default bundle when absent) with `services` added after its own. */
export function testBundle(bundle: string | Bundle | undefined, services: readonly ExtraService[]): Bundle {
  const base = typeof bundle === 'object' ? bundle : unpackBundle(readFileSync(bundle ?? defaultBundlePath()));
  const storesSchemas = base.services.some((s) => s.account === PACKAGES);
  return { ...base, services: [...base.services, ...services.map((s) => bundleService(s, storesSchemas))] };
}
