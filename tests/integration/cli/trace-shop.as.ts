// A test service for readable traces (deployed as `shop`): `buy` writes to the console and calls
// this service's `debit`, which writes too and fails past 10 ("insufficient balance"); `share`
// divides, so a zero divisor traps in the wasm code (an AssemblyScript i32 division has no check).

import { abort, callAction, getService, methodNumber, pack, writeConsole } from "../../../services-wasm/sdk/index";

@fracpack
class DebitArgs {
  constructor(public amount: u32 = 0) {}
}

@service("shop")
export class Shop {
  @action
  buy(count: u32): void {
    writeConsole("buying " + count.toString() + " apples\n");
    callAction(0, getService(), methodNumber("debit"), pack<DebitArgs>(new DebitArgs(count * 5)));
  }

  @action
  debit(amount: u32): void {
    writeConsole("debit " + amount.toString());
    if (amount > 10) abort("insufficient balance");
  }

  @action
  share(total: i32, people: i32): i32 {
    return total / people;
  }
}
