import { decodeLineTable, LINE_TABLE_SECTION, sourceLineAt, type LineTable } from '../../host-api/abi/line-table.js';
import { TsibaseError } from '../../host-api/errors.js';
import { WebAssemblyJs, type WasmModuleObject } from './admission/webassembly-api.js';

// Where in a service's source a trap happened (docs/host-abi.md §10.2): the engine's stack trace
// gives the byte offset of the trapping instruction, and the module's line table turns it into a
// file, a line and the source function holding it (else the function is the wasm function, by
// its name in a `name` section or its index). All of it depends on the module's bytes alone, so
// every node names the same place.

/** The innermost wasm frame of a V8 stack trace: `at <name> (wasm://wasm/<id>:wasm-function[<i>]:0x<offset>)`. */
const WASM_FRAME = /^\s*at (?:(.+?) \()?wasm:\/\/wasm\/[0-9a-f]+:wasm-function\[(\d+)\]:0x([0-9a-f]+)\)?$/m;

export class TrapLocator {
  /** Decoded on the first trap; null when the module has no (readable) line table. */
  private table: LineTable | null | undefined;

  constructor(private readonly module: WasmModuleObject) {}

  /**
   * ` at <file>:<line> in <function>` for a trap `error` thrown by this module's code (parts it
   * cannot tell are left out), or '' when the error's stack shows no wasm frame.
   */
  describe(error: Error): string {
    const frame = WASM_FRAME.exec(error.stack ?? '');
    if (!frame) return '';
    const [, name, functionIndex, offset] = frame;
    const source = this.lineTable() && sourceLineAt(this.table!, parseInt(offset!, 16));
    const where = source ? ` at ${source.file}:${source.line}` : '';
    return `${where} in ${source?.function ?? name ?? `function ${functionIndex}`}`;
  }

  private lineTable(): LineTable | null {
    if (this.table !== undefined) return this.table;
    const [section] = WebAssemblyJs.Module.customSections(this.module, LINE_TABLE_SECTION);
    this.table = null;
    if (section) {
      try {
        this.table = decodeLineTable(new Uint8Array(section));
      } catch (error) {
        if (!(error instanceof TsibaseError && error.code === 'LINE_TABLE_MALFORMED')) throw error;
      }
    }
    return this.table;
  }
}
