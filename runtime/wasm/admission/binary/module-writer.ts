import { ByteWriter } from './byte-writer.js';
import { WASM_MAGIC, WASM_VERSION } from './wasm-constants.js';

/** A module being written: the header, then sections, each sized once its content is written. */
export class ModuleWriter {
  readonly out: ByteWriter;
  private readonly content = new ByteWriter();

  constructor(initialCapacity = 1024) {
    this.out = new ByteWriter(initialCapacity).bytes(Uint8Array.from(WASM_MAGIC)).bytes(Uint8Array.from(WASM_VERSION));
  }

  /** Appends section `id` with the content `write` puts in the writer it is given. */
  section(id: number, write: (w: ByteWriter) => void): this {
    write(this.content.reset());
    this.out.u8(id).sized(this.content);
    return this;
  }

  /** Where the content of the section last appended begins in the module. */
  get lastContentStart(): number {
    return this.out.length - this.content.length;
  }

  /** A copy of the module's bytes. */
  finish(): Uint8Array {
    return this.out.view().slice();
  }
}
