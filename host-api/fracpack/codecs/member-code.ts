// What a record's member loops do, whichever way they run: compiled into straight-line code
// (compiled-member-code.ts) or interpreted over the member arrays (interpreted-member-code.ts).

import { FracpackError } from '../errors.js';
import type { Codec } from '../codec.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';

export type Fields = Record<string | number, unknown>;

/** The loops of one record layout (members with their keys and offsets in its fixed area). */
export interface MemberCode {
  /** Writes the slots of members [0, count) of `v`, then their heap parts. */
  write(w: Writer, v: Fields, count: number): void;
  /** Reads every member from the fixed area at `at`. */
  readAll(r: Reader, at: number): Fields;
  /**
   * Reads an extensible record's fixed area [fixedStart, fixedEnd): the members it holds, the
   * absent trailing ones as null (`absentTail` checks that they may be absent) and `unknownTail`
   * for slots past the known members; `emptyTrailing` if the last slot holds an absent optional.
   */
  readPresent(r: Reader, fixedStart: number, fixedEnd: number, hooks: PresentHooks): Fields;
}

export interface PresentHooks {
  /** Members [first, n) are not in the fixed area (`fixedLength` bytes, up to `fixedEnd`); the last present one ends at `p`. */
  absentTail(first: number, p: number, fixedLength: number, fixedEnd: number): void;
  /** Slots [p, fixedEnd) follow the known members; returns whether the last holds 1 (absent). */
  unknownTail(r: Reader, p: number, fixedEnd: number): boolean;
  /** The last slot present holds an absent optional. */
  emptyTrailing(): never;
}

export interface MemberLayoutInput {
  readonly keys: readonly (string | number)[];
  readonly codecs: readonly Codec[];
  readonly offsets: readonly number[];
  readonly positional: boolean;
  /** Names member i in error messages. */
  step(i: number): string;
}

/** A packed value without a required member. */
export function missingMember(): never {
  throw new FracpackError('FRACPACK_VALUE', 'missing member');
}
