// Events as stored (docs/host-abi.md §9): the packed extensible struct {service u64, type
// Option<MethodNumber>, data Option<argument Object>}, read by id from an event db (queries and
// callbacks only). Who wrote an event and its type are peeked at without decoding it; the data
// is then decoded, with the whole record checked, by the type's schema.

import { getSequential, NONE } from "../host";
import { takeResult } from "../result";
import { AccountNumber, MethodNumber } from "../names/types";
import { DbId } from "../tables/db";
import { FracpackJson } from "./fracpack-json";
import { EventType } from "./service-events";
import { Member, SchemaType, TypeKind } from "./schema-type";
import { JsonKind } from "../json/value";

/** The event `id` of event db `db` as stored, or null when there is none. */
export function readEvent(db: DbId, id: u64): Uint8Array | null {
  const size = getSequential(<u32>db, id);
  return size == NONE ? null : takeResult(size);
}

/** Who wrote an event and its type, read from the record's fixed area. */
export class EventHeader {
  constructor(public service: AccountNumber, public hasType: bool, public type: MethodNumber) {}

  /** The header of a stored record; null when the record is too short to have one. */
  static of(record: Uint8Array): EventHeader | null {
    if (record.length < 10) return null;
    const base = record.dataStart;
    const fixedSize = <u32>load<u16>(base);
    if (fixedSize < 8) return null;
    const service = load<u64>(base + 2);
    if (fixedSize < 12 || record.length < 14) return new EventHeader(service, false, 0);
    const target = <u64>10 + load<u32>(base + 10);
    if (load<u32>(base + 10) < 4 || target + 8 > <u64>record.length) return new EventHeader(service, false, 0);
    return new EventHeader(service, true, load<u64>(base + <usize>target));
  }
}

function named(name: string, kind: TypeKind, inner: SchemaType | null, bits: i32 = 0): Member {
  const t = new SchemaType();
  t.kind = kind;
  t.inner = inner;
  t.bits = bits;
  return new Member(name, t);
}

/** The record type of events of type `event` (kept with it: a query decodes many). */
function recordType(event: EventType): SchemaType {
  const known = event.record;
  if (known !== null) return known;
  const record = new SchemaType();
  record.kind = TypeKind.Object;
  record.members = [
    named("service", TypeKind.Int, null, 64),
    named("type", TypeKind.Option, named("", TypeKind.Int, null, 64).type),
    named("data", TypeKind.Option, event.data),
  ];
  event.record = record;
  return record;
}

/**
 * Decodes a stored record of type `event`: its `value` is the event's fields (an Object; an
 * absent data member is an empty one), or null with the reason in `error`.
 */
export function decodeEventData(record: Uint8Array, event: EventType): FracpackJson {
  const decoded = FracpackJson.decode(recordType(event), record);
  const value = decoded.value;
  if (value !== null) {
    const data = value.get("data")!;
    if (data.kind == JsonKind.Null) data.kind = JsonKind.Object;
    decoded.value = data;
  }
  return decoded;
}
