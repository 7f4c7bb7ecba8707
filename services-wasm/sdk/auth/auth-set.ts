// The cycle rule of isAuthSys / isRejectSys (docs/administration.md §4.4): an account already in `authSet` is
// being asked about again, so the answer is false.

import { AccountNumber } from "../names/types";
import { Option } from "../fracpack/option";

export function inAuthSet(sender: AccountNumber, authSet: Option<Array<AccountNumber>>): bool {
  return authSet.hasValue && authSet.value.includes(sender);
}
