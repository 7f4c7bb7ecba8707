// A transfer-like action for bench/host: rawData = from u64, to u64, amount u64 (little-endian);
// reads both balances and writes both back (2 reads + 2 writes), using the raw host imports.

@external("env", "getResult") declare function getResult(dest: usize, cap: u32, offset: u32): u32;
@external("env", "getCurrentAction") declare function getCurrentAction(): u32;
@external("env", "kvGet") declare function kvGet(db: u32, kptr: usize, klen: u32): u32;
@external("env", "kvPut") declare function kvPut(db: u32, kptr: usize, klen: u32, vptr: usize, vlen: u32): void;
@external("env", "abortMessage") declare function abortMessage(ptr: usize, len: u32): void;

const NONE: u32 = 0xffffffff;
let self: u64 = 0;

export function start(service: u64): void {
  self = service;
}

function balanceKey(account: u64): StaticArray<u8> {
  // service (8, big-endian) , table 1 (u16 big-endian) , index 0 , account (8, big-endian)
  const key = new StaticArray<u8>(19);
  store<u64>(changetype<usize>(key), bswap<u64>(self));
  store<u16>(changetype<usize>(key) + 8, bswap<u16>(1));
  store<u8>(changetype<usize>(key) + 10, 0);
  store<u64>(changetype<usize>(key) + 11, bswap<u64>(account));
  return key;
}

function balance(key: StaticArray<u8>): u64 {
  const size = kvGet(0, changetype<usize>(key), 19);
  if (size == NONE) return 1_000_000;
  const buffer = memory.data(8);
  getResult(buffer, 8, 0);
  return load<u64>(buffer);
}

export function called(receiver: u64, sender: u64): void {
  const size = getCurrentAction();
  const action = new StaticArray<u8>(size);
  getResult(changetype<usize>(action), size, 0);
  const base = changetype<usize>(action);
  // Action: u16 header, sender 8, service 8, method 8, rawData offset slot at byte 26.
  const raw = base + 26 + load<u32>(base + 26) + 4;
  const from = load<u64>(raw);
  const to = load<u64>(raw + 8);
  const amount = load<u64>(raw + 16);
  const fromKey = balanceKey(from);
  const toKey = balanceKey(to);
  const fromBalance = balance(fromKey);
  const toBalance = balance(toKey);
  if (fromBalance < amount) {
    const msg = String.UTF8.encode('insufficient balance');
    abortMessage(changetype<usize>(msg), msg.byteLength);
  }
  const out = memory.data(16);
  store<u64>(out, fromBalance - amount);
  store<u64>(out + 8, toBalance + amount);
  kvPut(0, changetype<usize>(fromKey), 19, out, 8);
  kvPut(0, changetype<usize>(toKey), 19, out + 8, 8);
}
