// `make psibase-admission PSIBASE_WASM=<dir>`: tries admission (what a deploy runs first) on every
// .wasm in a directory of psibase-built services and prints, for each, admitted with its host ABI
// generation or refused with the reason; then the figures, the refusals grouped by reason.
// Admission is the node's own (runtime/wasm/admission) with the node's limits (docs/host-abi.md §10).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AdmissionError, admitModule } from '../../runtime/wasm/admission/index.js';

const wasmDir = process.argv[2] ?? process.env.PSIBASE_WASM;
if (!wasmDir || !existsSync(wasmDir)) {
  console.error('usage: node dist/tests/psibase-check/admission-survey.js <dir of .wasm files> (make psibase-admission PSIBASE_WASM=<dir>)');
  process.exit(2);
}

const files = readdirSync(wasmDir).filter((f) => f.endsWith('.wasm')).sort();
const refusals = new Map<string, string[]>();
let admitted = 0;
for (const file of files) {
  try {
    const module = admitModule(readFileSync(join(wasmDir, file)));
    admitted++;
    console.log(`admitted ${file} (${module.abi} generation, ${module.imports.length} host imports)`);
  } catch (error) {
    // Anything but an AdmissionError is a bug of admission, not a refusal: let it surface.
    if (!(error instanceof AdmissionError)) throw error;
    const reason = `${error.code}: ${error.message}`;
    console.log(`refused  ${file}: ${reason}`);
    refusals.set(reason, [...(refusals.get(reason) ?? []), file.replace(/\.wasm$/, '')]);
  }
}
console.log(`\n${admitted} admitted of ${files.length}`);
for (const [reason, names] of [...refusals].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`${names.length} refused, ${reason}: ${names.join(', ')}`);
}
