import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Compiled services kept on disk by what their compile read (as ccache's direct mode keeps
// objects): a record is found by the digest of the compile's inputs that are known before it
// runs (the toolchain, the entry, the overrides) and is used only while every file the compile
// read (or looked for and did not find) still has the text it had. An AssemblyScript compile of
// a service takes seconds; the tests and `make services` compile the same sources again and
// again (docs/design.md, decision 4).

/** What a compile read from disk: each file's absolute path and the digest of its text, or null when it was not there. */
export type CompileReads = Record<string, string | null>;

interface CacheRecord {
  readonly reads: CompileReads;
  /** The module, base64. */
  readonly binary: string;
}

/** The sha256 of a text in hex, or null for a file that was not there. */
export function textDigest(text: string | null): string | null {
  return text === null ? null : createHash('sha256').update(text).digest('hex');
}

function currentDigest(file: string): string | null {
  try {
    return textDigest(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

export class CompileCache {
  /** `toolchain`: a digest of everything a compile depends on that it does not read through its file callback (the compiler, its options, the transform). */
  constructor(private readonly dir: string, private readonly toolchain: string) {}

  /** The key of a compile whose inputs known beforehand are `inputs`. */
  keyOf(inputs: unknown): string {
    return createHash('sha256').update(this.toolchain).update('\0').update(JSON.stringify(inputs)).digest('hex');
  }

  /** The module kept under `key`, if every file its compile read is unchanged. */
  get(key: string): Uint8Array | null {
    let record: CacheRecord;
    try {
      record = JSON.parse(readFileSync(this.fileOf(key), 'utf8')) as CacheRecord;
    } catch {
      return null;
    }
    for (const [file, digest] of Object.entries(record.reads)) {
      if (currentDigest(file) !== digest) return null;
    }
    return new Uint8Array(Buffer.from(record.binary, 'base64'));
  }

  /** Keeps `binary` under `key` with what its compile read; written whole or not at all, so processes may share the folder. */
  put(key: string, reads: CompileReads, binary: Uint8Array): void {
    mkdirSync(this.dir, { recursive: true });
    const record: CacheRecord = { reads, binary: Buffer.from(binary).toString('base64') };
    const temporary = `${this.fileOf(key)}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(record));
    renameSync(temporary, this.fileOf(key));
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${key}.json`);
  }
}
