import { LoginData } from '../types/native.js';

/**
 * The one action of a login transaction (docs/chain.md §7): transact::loginSys from `user` for
 * `rootHost`. Its transaction carries the do-not-broadcast flag and is checked, never executed.
 */
export function loginAction(user: string, rootHost: string) {
  return { sender: user, service: 'transact', method: 'loginSys', rawData: LoginData.pack({ rootHost }) };
}
