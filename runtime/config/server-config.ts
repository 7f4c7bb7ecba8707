import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { isValidAccountName } from '../../host-api/names/index.js';
import { LogError } from '../log/errors.js';
import { parseLoggersConfig } from '../log/config.js';
import { ConfigError } from './errors.js';

// The server configuration of docs/administration.md §2 (`GET/PUT /config`). The object may gain fields at any
// time, so a configuration is kept as the JSON object it was given: known fields are checked,
// unknown ones are carried along untouched (clients return them unchanged, docs/administration.md §2).

export type ListenSpec =
  | { readonly protocol: 'http' | 'https'; readonly address: string; readonly port: number }
  | { readonly protocol: 'local'; readonly path: string };

export interface TlsSpec {
  readonly certificate?: string;
  readonly key?: string;
  readonly trustfiles?: readonly string[];
}

/** A built-in static content host: `host` (a trailing `.` appends the root host) served from `root`. */
export interface StaticServiceSpec {
  readonly host: string;
  readonly root: string;
}

export interface ServerConfig {
  readonly p2p: boolean;
  readonly peers: readonly string[];
  readonly autoconnect: number | boolean;
  readonly producer: string;
  readonly 'pkcs11-modules': readonly string[];
  readonly hosts: readonly string[];
  readonly listen: readonly ListenSpec[];
  readonly tls?: TlsSpec;
  readonly services: readonly StaticServiceSpec[];
  /** Microseconds before an idle connection is closed; null = never. */
  readonly http_timeout: number | null;
  readonly loggers: Readonly<Record<string, unknown>>;
  /**
   * Bytes of database cache this node wants held in memory (psibase's `database-cache-size`);
   * checked at start, status `slow` when it cannot be locked. Absent = no wish, no check.
   */
  readonly database_cache_size?: number;
  /** Open connections the http and https listeners take together; past it a new one gets 503. Absent = the node's default. */
  readonly max_connections?: number;
  /** Peer links past which an incoming one is refused with 503. Absent = the node's default (64). */
  readonly max_peers?: number;
  /**
   * Threads that run queries off the chain thread (docs/serving.md §10), read at start; 0 runs them
   * on the chain thread. Absent = the cores less one, at least one (defaultServiceThreads).
   */
  readonly service_threads?: number;
  /** Fields this node does not know, kept as given. */
  readonly [unknown: string]: unknown;
}

/** What a new node directory starts with (docs/http.md §6: new files). */
export function defaultConfig(): ServerConfig {
  return {
    p2p: false,
    peers: [],
    autoconnect: true,
    producer: '',
    'pkcs11-modules': [],
    hosts: ['tsibase.localhost'],
    listen: [{ protocol: 'http', address: '127.0.0.1', port: 8080 }],
    services: [],
    http_timeout: 4_000_000,
    loggers: {
      console: { type: 'console', filter: 'Severity >= info', format: '[{TimeStamp}] [{Severity}]{?: [{RemoteEndpoint}]}: {Message}' },
    },
  };
}

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(field: string, problem: string): never {
  throw new ConfigError('CONFIG_BAD_FIELD', `${field}: ${problem}`);
}

function boolean(field: string, value: Json): boolean {
  if (typeof value !== 'boolean') fail(field, `expected true or false, got ${JSON.stringify(value)}`);
  return value;
}

function string(field: string, value: Json): string {
  if (typeof value !== 'string') fail(field, `expected a string, got ${JSON.stringify(value)}`);
  return value;
}

function strings(field: string, value: Json): string[] {
  if (!Array.isArray(value)) fail(field, `expected an array of strings, got ${JSON.stringify(value)}`);
  return value.map((v, i) => string(`${field}[${i}]`, v));
}

/** A whole number in [min, max]; 64-bit figures may come as decimal strings (docs/http.md §6). */
function integer(field: string, value: Json, min: number, max: number): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    fail(field, `expected a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

function hostName(field: string, value: Json): string {
  const name = string(field, value);
  if (!HOST_NAME.test(name)) fail(field, `'${name}' is not a host name`);
  return name;
}

function listenSpec(field: string, value: Json): ListenSpec {
  if (!isObject(value)) fail(field, 'expected an object with a protocol');
  const protocol = value.protocol;
  if (protocol === 'local') {
    const path = string(`${field}.path`, value.path);
    if (path === '') fail(`${field}.path`, 'must not be empty');
    return { protocol, path };
  }
  if (protocol !== 'http' && protocol !== 'https') fail(`${field}.protocol`, `expected http, https or local, got ${JSON.stringify(protocol)}`);
  const address = value.address === undefined ? '127.0.0.1' : string(`${field}.address`, value.address);
  if (isIP(address) === 0) fail(`${field}.address`, `'${address}' is not an IP address`);
  return { protocol, address, port: integer(`${field}.port`, value.port, 0, 65535) };
}

function tlsSpec(value: Json): TlsSpec {
  if (!isObject(value)) fail('tls', 'expected an object');
  const tls: { certificate?: string; key?: string; trustfiles?: string[] } = {};
  if (value.certificate !== undefined) tls.certificate = string('tls.certificate', value.certificate);
  if (value.key !== undefined) tls.key = string('tls.key', value.key);
  if (value.trustfiles !== undefined) tls.trustfiles = strings('tls.trustfiles', value.trustfiles);
  return tls;
}

function staticService(field: string, value: Json): StaticServiceSpec {
  if (!isObject(value)) fail(field, 'expected an object with host and root');
  const host = string(`${field}.host`, value.host);
  if (!HOST_NAME.test(host.replace(/\.$/, ''))) fail(`${field}.host`, `'${host}' is not a host name`);
  const root = string(`${field}.root`, value.root);
  if (root === '') fail(`${field}.root`, 'must not be empty');
  return { host, root };
}

/** Timeouts are kept as JS numbers, so exact up to 2^53 - 1 µs. */
const MAX_HTTP_TIMEOUT_US = Number.MAX_SAFE_INTEGER;

/**
 * The fields a configuration without them keeps from its base: the defaults' and the optional
 * ones, but not `http_timeout`, whose absence means no timeout (docs/administration.md §2).
 */
const KEPT_FIELDS = [...Object.keys(defaultConfig()), 'tls', 'database_cache_size', 'max_connections', 'max_peers', 'service_threads'].filter((f) => f !== 'http_timeout');

/** More connections than any one process could hold open (file descriptors). */
const MAX_CONNECTIONS_CAP = 1_000_000;
/** More peer links than a node could serve (each gets a share of its time, docs/p2p.md "What we build" 1). */
export const MAX_PEERS_CAP = 10_000;
/** More query threads than any machine has cores for. */
const MAX_SERVICE_THREADS = 1024;

/** The query threads of a configuration without service_threads: the cores less the chain thread's, at least one. */
export function defaultServiceThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * Checks a configuration object (a PUT body or the persisted file) and returns it normalised:
 * missing known fields take `base`'s values (a missing `http_timeout` is null), `pkcs11_modules` is read as `pkcs11-modules`,
 * unknown fields are the object's own (a PUT replaces them wholesale); logger paths are checked
 * relative to `directory`. Throws ConfigError naming the field on the first problem.
 */
export function parseServerConfig(value: Json, base: ServerConfig, directory: string): ServerConfig {
  if (!isObject(value)) fail('config', 'expected a JSON object');
  const { pkcs11_modules: altModules, ...rest } = value;
  const input: Record<string, Json> = { ...rest };
  if (input['pkcs11-modules'] === undefined && altModules !== undefined) input['pkcs11-modules'] = altModules;
  const out: Record<string, Json> = {};
  for (const field of KEPT_FIELDS) if (base[field] !== undefined) out[field] = base[field];
  Object.assign(out, input);

  out.p2p = boolean('p2p', out.p2p);
  out.peers = strings('peers', out.peers);
  if (typeof out.autoconnect !== 'boolean') out.autoconnect = integer('autoconnect', out.autoconnect, 0, 2 ** 31 - 1);
  out.producer = string('producer', out.producer);
  if (out.producer !== '' && !isValidAccountName(out.producer as string)) fail('producer', `'${out.producer}' is not an account name`);
  out['pkcs11-modules'] = strings('pkcs11-modules', out['pkcs11-modules']);
  if (!Array.isArray(out.hosts)) fail('hosts', 'expected an array of host names');
  out.hosts = out.hosts.map((h, i) => hostName(`hosts[${i}]`, h));
  if (!Array.isArray(out.listen)) fail('listen', 'expected an array of interfaces');
  out.listen = out.listen.map((l, i) => listenSpec(`listen[${i}]`, l));
  if (out.tls === undefined || out.tls === null) delete out.tls;
  else out.tls = tlsSpec(out.tls);
  if (!Array.isArray(out.services)) fail('services', 'expected an array of {host, root}');
  out.services = out.services.map((s, i) => staticService(`services[${i}]`, s));
  out.http_timeout = out.http_timeout === undefined || out.http_timeout === null ? null : integer('http_timeout', out.http_timeout, 0, MAX_HTTP_TIMEOUT_US);
  if (out.database_cache_size === undefined || out.database_cache_size === null) delete out.database_cache_size;
  else out.database_cache_size = integer('database_cache_size', out.database_cache_size, 0, Number.MAX_SAFE_INTEGER);
  if (out.max_connections === undefined || out.max_connections === null) delete out.max_connections;
  else out.max_connections = integer('max_connections', out.max_connections, 1, MAX_CONNECTIONS_CAP);
  if (out.max_peers === undefined || out.max_peers === null) delete out.max_peers;
  else out.max_peers = integer('max_peers', out.max_peers, 1, MAX_PEERS_CAP);
  if (out.service_threads === undefined || out.service_threads === null) delete out.service_threads;
  else out.service_threads = integer('service_threads', out.service_threads, 0, MAX_SERVICE_THREADS);
  if (!isObject(out.loggers)) fail('loggers', 'expected an object with one field per logger');
  try {
    parseLoggersConfig(out.loggers, directory);
  } catch (err) {
    if (!(err instanceof LogError)) throw err;
    fail('loggers', err.message);
  }
  const tls = out.tls as TlsSpec | undefined;
  if ((out.listen as ListenSpec[]).some((l) => l.protocol === 'https') && !(tls?.certificate && tls.key)) {
    fail('tls', 'an https listener needs tls.certificate and tls.key');
  }
  return out as ServerConfig;
}
