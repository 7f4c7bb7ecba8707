import { AccountNumber, HttpRequest, Option, Packed, none } from "../sdk/index";

/** What the node passes to `serve` (docs/system-services.md). */
@fracpack
export class ServeArgs {
  constructor(
    public socket: i32 = 0,
    /** Kept packed: it is handed on to serveSys as it came. */
    public request: Packed<HttpRequest> = Packed.of<HttpRequest>(new HttpRequest()),
    /** The configured root host the request's host matched (the node resolved it). */
    public rootHost: string = "",
    /** The user the request's login token names (the node checked the token). */
    public user: Option<AccountNumber> = none<AccountNumber>(),
  ) {}
}
