// The auth interface of docs/administration.md §4.4: its wire types, the flags of checkAuthSys,
// asking an auth service (checkAuthSys) and the cycle rule of isAuthSys / isRejectSys. Kept out
// of the SDK's index so services that declare their own records of these names still build.

export { Claim, ServiceMethod } from "./types";
export * from "./flags";
export { inAuthSet } from "./auth-set";
export { checkAuthSys } from "./check-auth";
