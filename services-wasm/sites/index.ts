// sites: web hosting for accounts (docs/serving.md §1). An account stores files (path, content type,
// bytes) with storeSys and removes them with removeSys; they are served on the account's
// subdomain (the root domain serves homepage's). `/` and paths ending in `/` serve their
// `index.html`, as does a path without an extension that names a directory.

import {
  AccountNumber, HttpReply, HttpRequest, Option, Table, account, check, checkHttpServerCaller, getSender,
} from "../sdk/index";
import { HttpActor } from "../http/index";
import { hostServiceName } from "../http/host-service";

/** Paths are absolute, at most this long. */
const MAX_PATH = 512;

@fracpack
export class SiteFile {
  constructor(
    public account: AccountNumber = 0,
    public path: string = "",
    public contentType: string = "",
    public content: Uint8Array = new Uint8Array(0),
  ) {}
}

@struct
class SiteFileKey {
  constructor(public account: AccountNumber = 0, public path: string = "") {}
}

const files = new Table<SiteFile, SiteFileKey>(1, (f: SiteFile): SiteFileKey => new SiteFileKey(f.account, f.path));

function checkPath(path: string): void {
  check(path.startsWith("/"), "path must begin with /");
  check(path.length <= MAX_PATH, "path is longer than " + MAX_PATH.toString() + " characters");
  check(!path.includes("/../") && !path.endsWith("/..") && !path.includes("//"), "path must not contain empty or .. segments");
  check(!path.includes("?") && !path.includes("#"), "path must not contain ? or #");
}

/** The file `path` names for `owner`: itself, or the index.html of the directory it names. */
function findFile(owner: AccountNumber, path: string): SiteFile | null {
  if (path.endsWith("/")) return files.get(new SiteFileKey(owner, path + "index.html"));
  const file = files.get(new SiteFileKey(owner, path));
  if (file !== null) return file;
  const last = path.substring(path.lastIndexOf("/") + 1);
  return last.includes(".") ? null : files.get(new SiteFileKey(owner, path + "/index.html"));
}

@service("sites")
export class Sites {
  /** Stores (or replaces) a file of the sender's site. */
  @action
  storeSys(path: string, contentType: string, content: Uint8Array): void {
    checkPath(path);
    check(contentType.length > 0, "a file needs a content type");
    files.put(new SiteFile(getSender(), path, contentType, content));
  }

  /** Removes a file of the sender's site (nothing if it is absent). */
  @action
  removeSys(path: string): void {
    checkPath(path);
    files.remove(new SiteFileKey(getSender(), path));
  }

  /** The reply serving `owner`'s file at `path` (index.html rules applied), or none. */
  @action
  serveFile(owner: AccountNumber, path: string): HttpReply | null {
    const file = findFile(owner, path);
    return file !== null ? HttpReply.bytes(file.contentType, file.content) : null;
  }

  @action
  serveSys(request: HttpRequest, socket: Option<i32>, user: Option<AccountNumber>): HttpReply | null {
    checkHttpServerCaller();
    if (request.method != "GET" && request.method != "HEAD") return null;
    return this.serveFile(account(hostServiceName(request.host, new HttpActor().rootHost())), request.path());
  }
}
