// Cross-checks the admitted opcode table against an independent decoder (wasm-tools): every
// allowed opcode, written with immediates of the shape the table gives, must print under the
// table's name, as a single instruction.
import { print } from '@bytecodealliance/jco-transpile/wasm-tools';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Immediate,
  MISC_OPCODES,
  SIMD_OPCODES,
  SINGLE_BYTE_OPCODES,
  isForbidden,
  type OpcodeEntry,
} from '../../../../runtime/wasm/admission/binary/opcodes.js';
import { binaryModule, leb, vec } from './admission-helpers.js';

const IMMEDIATE_BYTES: Record<number, number[]> = {
  [Immediate.none]: [],
  [Immediate.blockType]: [0x40],
  [Immediate.label]: [0x00],
  [Immediate.labelTable]: [0x01, 0x00, 0x00],
  [Immediate.function]: [0x00],
  [Immediate.callIndirect]: [0x00, 0x00],
  [Immediate.local]: [0x00],
  [Immediate.global]: [0x00],
  [Immediate.memarg]: [0x00, 0x00],
  [Immediate.memoryIndex]: [0x00],
  [Immediate.i32]: [0x00],
  [Immediate.i64]: [0x00],
  [Immediate.f32]: [0, 0, 0, 0],
  [Immediate.f64]: [0, 0, 0, 0, 0, 0, 0, 0],
  [Immediate.memoryInit]: [0x00, 0x00],
  [Immediate.dataIndex]: [0x00],
  [Immediate.memoryCopy]: [0x00, 0x00],
  [Immediate.tableInit]: [0x00, 0x00],
  [Immediate.elemIndex]: [0x00],
  [Immediate.tableCopy]: [0x00, 0x00],
  [Immediate.v128]: new Array(16).fill(0),
  [Immediate.shuffle]: new Array(16).fill(0),
  [Immediate.lane]: [0x00],
  [Immediate.memargLane]: [0x00, 0x00, 0x00],
};

function allowed(table: readonly OpcodeEntry[], prefix: number[]): { name: string; code: number[] }[] {
  const out: { name: string; code: number[] }[] = [];
  table.forEach((entry, opcode) => {
    if (entry === undefined || isForbidden(entry) || entry.name === 'else' || entry.name === 'end') return;
    const encoded = prefix.length ? [...prefix, ...leb(opcode)] : [opcode];
    const blockEnd = entry.immediate === Immediate.blockType ? [0x0b] : [];
    out.push({ name: entry.name, code: [...encoded, ...IMMEDIATE_BYTES[entry.immediate]!, ...blockEnd] });
  });
  return out;
}

test('every allowed opcode decodes under its table name in wasm-tools', async () => {
  const instructions = [...allowed(SINGLE_BYTE_OPCODES, []), ...allowed(MISC_OPCODES, [0xfc]), ...allowed(SIMD_OPCODES, [0xfd])];
  assert.ok(instructions.length > 400, `${instructions.length} opcodes`);
  const bodies = instructions.map(({ code }) => {
    const body = [0x00, ...code, 0x0b];
    return [...leb(body.length), ...body];
  });
  const bytes = binaryModule(
    [1, vec([0x60, 0x00, 0x00])],
    [3, vec(...instructions.map(() => [0x00]))],
    [10, [...leb(bodies.length), ...bodies.flat()]],
  );
  const text = await print(bytes);
  const functions = text.split(/\n\s*\(func /).slice(1);
  assert.is(functions.length, instructions.length);
  functions.forEach((printed, i) => {
    const lines = printed.split('\n').slice(1).map((l) => l.trim()).filter((l) => l && l !== ')' && l !== 'end');
    assert.ok(lines.length >= 1, `${instructions[i]!.name}: nothing printed`);
    assert.is(lines[0]!.split(/\s/)[0], instructions[i]!.name);
    assert.is(lines.length, 1, `${instructions[i]!.name} printed as ${lines.join(' | ')}`);
  });
});

test.run();
