// A test service for objective onBlock callbacks (deployed as `ticker`): `tick`, registered as a
// callback, counts the blocks it ran at, remembers the first and the last, and writes a merkle
// event (so a block's id depends on its tick); `refuseBlocks` makes every later tick fail;
// `ticks` reports the count with the block being built.

import { Table, abort } from "../../../services-wasm/sdk/index";
import { getStatus } from "../../../services-wasm/sdk/native/index";

@fracpack
class TickRow {
  constructor(public key: u8 = 0, public count: u32 = 0, public firstBlock: u32 = 0, public lastBlock: u32 = 0, public refusing: bool = false) {}
}

@fracpack
class Ticks {
  constructor(public count: u32 = 0, public firstBlock: u32 = 0, public lastBlock: u32 = 0, public refusing: bool = false, public currentBlock: u32 = 0) {}
}

const ticks = new Table<TickRow, u8>(1, (row: TickRow): u8 => row.key);

function row(): TickRow {
  const found = ticks.get(0);
  return found !== null ? found : new TickRow();
}

@service("ticker")
export class Ticker {
  @action
  tick(): void {
    const blockNum = getStatus().current.blockNum;
    const r = row();
    if (r.refusing) abort("ticker refuses block " + blockNum.toString());
    if (r.count == 0) r.firstBlock = blockNum;
    r.count++;
    r.lastBlock = blockNum;
    ticks.put(r);
    this.ticked(blockNum);
  }

  /** `nonce` only tells transactions apart. */
  @action
  refuseBlocks(nonce: u32): void {
    const r = row();
    r.refusing = true;
    ticks.put(r);
  }

  /** `nonce` only tells transactions apart. */
  @action
  ticks(nonce: u32): Ticks {
    const r = row();
    return new Ticks(r.count, r.firstBlock, r.lastBlock, r.refusing, getStatus().current.blockNum);
  }

  @event("merkle")
  ticked(blockNum: u32): void {}
}
