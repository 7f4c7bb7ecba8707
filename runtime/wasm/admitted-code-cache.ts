import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AbiGeneration, AnyHostImportName } from '../../host-api/abi/abi-generation.js';
import { DEFAULT_ADMISSION_OPTIONS, type AdmissionOptions, type MemoryLimits, type MutableGlobal } from './admission/index.js';

// Admitted service code kept on disk, so that a node's start (a dev chain's boot, a TestChain's
// first one) does not check and meter the same code again (docs/design.md, decision 2).
// Admission is deterministic: its output is a function of the code, the admission code, its
// limits and the engine's validator. An entry is named by the hash of the code it was made from
// and kept under a fingerprint of everything else, so a change to admission (or another Node)
// never finds the old entries; each entry carries a hash of its own content, so a torn or
// corrupt file is never used: it counts as absent and is made again.

/** What the engine keeps of an admitted module (runtime/wasm/engine.ts). */
export interface AdmittedCode {
  /** The metered module. */
  readonly bytes: Uint8Array;
  readonly abi: AbiGeneration;
  readonly imports: readonly AnyHostImportName[];
  readonly memory: MemoryLimits | undefined;
  readonly mutableGlobals: readonly MutableGlobal[];
  readonly resettable: boolean;
}

/** TSIBASE_CACHE_DIR: where the cache is (empty: none); by default the user's cache folder. */
export const CACHE_DIR_ENV = 'TSIBASE_CACHE_DIR';

/** Entries kept; past it the least recently written go, at a process's first write (a dev chain's redeploys add one each). */
const MAX_ENTRIES = 512;

const MAGIC = Buffer.from('tsibase admitted 1\n');
const DIGEST_BYTES = 32;

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** The files of the admission code and of the host ABI it checks imports against. */
function admissionSourceFiles(): string[] {
  return [new URL('./admission/', import.meta.url), new URL('../../host-api/abi/', import.meta.url)].flatMap((url) => {
    const dir = fileURLToPath(url);
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js')).sort().map((f) => join(dir, f));
  });
}

/** What admission's output depends on besides the code: its own code, its limits, the engine. */
function admissionFingerprint(options: AdmissionOptions): string {
  const hash = createHash('sha256');
  for (const file of admissionSourceFiles()) hash.update(file.slice(file.lastIndexOf('dist'))).update(readFileSync(file));
  hash.update(JSON.stringify({ ...DEFAULT_ADMISSION_OPTIONS, ...options })).update(process.versions.v8);
  return hash.digest('hex').slice(0, 32);
}

/** The cache's folder: TSIBASE_CACHE_DIR's (none when it is empty), or the user's ($XDG_CACHE_HOME or ~/.cache, then tsibase). */
export function defaultAdmittedCodeDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env[CACHE_DIR_ENV];
  if (configured === '') return undefined;
  return join(configured ?? join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tsibase'), 'admitted');
}

export class AdmittedCodeCache {
  private fingerprintDir: string | undefined;
  /** Pruning reads every entry's time: once a process, at its first write, not at each. */
  private pruned = false;

  /** A cache in `dir` for admission with `options`. */
  constructor(readonly dir: string, private readonly options: AdmissionOptions = {}) {}

  /** The admitted form of `code`, when an intact entry holds it. */
  get(code: Uint8Array): AdmittedCode | undefined {
    return this.entry(sha256(code));
  }

  /** Keeps `admitted` as the admitted form of `code`. A cache that cannot be written is no cache: nothing fails. */
  put(code: Uint8Array, admitted: AdmittedCode): void {
    this.keep(sha256(code), admitted);
  }

  /** The admitted form of `code` from its entry, else `admit`'s, kept: the code is hashed once. */
  getOrAdmit(code: Uint8Array, admit: () => AdmittedCode): AdmittedCode {
    const codeHash = sha256(code);
    const cached = this.entry(codeHash);
    if (cached) return cached;
    const admitted = admit();
    this.keep(codeHash, admitted);
    return admitted;
  }

  private entry(codeHash: Buffer): AdmittedCode | undefined {
    let file: Buffer;
    try {
      file = readFileSync(this.entryPath(codeHash));
    } catch {
      return undefined;
    }
    return decodeEntry(file, codeHash);
  }

  private keep(codeHash: Buffer, admitted: AdmittedCode): void {
    try {
      const path = this.entryPath(codeHash);
      mkdirSync(this.fingerprintPath(), { recursive: true });
      // Written aside and renamed: a reader sees the whole entry or none (a crash may tear the
      // temporary file, never the entry; no fsync, the cache is not worth a disk flush).
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, encodeEntry(admitted, codeHash));
      renameSync(temporary, path);
      if (!this.pruned) {
        this.pruned = true;
        this.prune();
      }
    } catch {
      // A read-only or full disk: the node admits the code each start, as without a cache.
    }
  }

  private fingerprintPath(): string {
    return (this.fingerprintDir ??= join(this.dir, admissionFingerprint(this.options)));
  }

  private entryPath(codeHash: Buffer): string {
    return join(this.fingerprintPath(), codeHash.toString('hex'));
  }

  /** Drops the oldest entries (of any fingerprint) past MAX_ENTRIES, and fingerprints left empty. */
  private prune(): void {
    const entries = readdirSync(this.dir).flatMap((fingerprint) =>
      readdirSync(join(this.dir, fingerprint)).map((name) => {
        const path = join(this.dir, fingerprint, name);
        return { path, written: statSync(path).mtimeMs };
      }));
    if (entries.length <= MAX_ENTRIES) return;
    entries.sort((a, b) => a.written - b.written);
    for (const { path } of entries.slice(0, entries.length - MAX_ENTRIES)) rmSync(path, { force: true });
    for (const fingerprint of readdirSync(this.dir)) {
      const dir = join(this.dir, fingerprint);
      if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** An entry: MAGIC, the SHA-256 of all after it, the code's hash, the length of the JSON of the rest, that JSON, the metered module. */
function encodeEntry(admitted: AdmittedCode, codeHash: Uint8Array): Buffer {
  const { bytes, abi, imports, memory, mutableGlobals, resettable } = admitted;
  const json = Buffer.from(JSON.stringify({ abi, imports, memory, mutableGlobals, resettable }));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const body = [codeHash, length, json, bytes];
  return Buffer.concat([MAGIC, sha256(...body), ...body]);
}

/** The entry's content when it is whole and for the code of `codeHash`. */
function decodeEntry(file: Buffer, codeHash: Uint8Array): AdmittedCode | undefined {
  const bodyAt = MAGIC.length + DIGEST_BYTES;
  if (file.length < bodyAt + DIGEST_BYTES + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const body = file.subarray(bodyAt);
  if (!sha256(body).equals(file.subarray(MAGIC.length, bodyAt))) return undefined;
  if (!body.subarray(0, DIGEST_BYTES).equals(codeHash)) return undefined;
  const jsonLength = body.readUInt32LE(DIGEST_BYTES);
  const jsonAt = DIGEST_BYTES + 4;
  if (jsonAt + jsonLength > body.length) return undefined;
  const rest = JSON.parse(body.subarray(jsonAt, jsonAt + jsonLength).toString('utf8')) as Omit<AdmittedCode, 'bytes'>;
  // A copy: the module's bytes must not keep the whole file's buffer alive.
  return { ...rest, memory: rest.memory ?? undefined, bytes: new Uint8Array(body.subarray(jsonAt + jsonLength)) };
}
