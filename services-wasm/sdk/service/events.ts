// Events (docs/host-abi.md §9): putSequential of the packed extensible struct
// {service u64, type Option<MethodNumber>, data Option<argument Object>} into event db 4
// (history), 5 (ui) or 6 (merkle). Services declare them as @event methods; see the README.

import { AccountNumber, MethodNumber } from "../names/types";
import { putSequential } from "../host";
import { Writer } from "../fracpack/writer";
import { writeFull } from "../fracpack/codec";
import { DbId } from "../tables/db";
import { getService } from "./context";

/** A record's fixed area and its type, with the writer at the data slot's target. */
function recordHead(service: AccountNumber, type: MethodNumber): Writer {
  const w = new Writer();
  w.u16(16); // fixed area: service (8) + type slot (4) + data slot (4)
  w.u64(service);
  const typeSlot = w.slot();
  const dataSlot = w.slot();
  w.pointHere(typeSlot);
  w.u64(type);
  w.pointHere(dataSlot);
  return w;
}

function append(db: DbId, w: Writer): u64 {
  const bytes = w.finish();
  return putSequential(<u32>db, bytes.dataStart, bytes.length);
}

/** Emits event `type` with argument Object `data`; returns the event's id. */
export function emitEvent<T>(db: DbId, type: MethodNumber, data: T): u64 {
  const w = recordHead(getService(), type);
  writeFull<T>(w, data);
  return append(db, w);
}

/**
 * Writes event `type` of `service` whose arguments are already packed (`packedData`, an argument
 * Object); privileged services only, unless `service` is the running one. Returns the event's id.
 */
export function appendEvent(db: DbId, service: AccountNumber, type: MethodNumber, packedData: Uint8Array): u64 {
  const w = recordHead(service, type);
  w.bytes(packedData);
  return append(db, w);
}
