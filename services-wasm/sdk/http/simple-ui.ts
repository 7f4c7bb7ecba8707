// The simple UI helper of docs/serving.md §4.4: GET /action_templates (every action with sample
// arguments), POST /pack_action/<action> (JSON arguments in, fracpack out) and, when `root` is
// on, GET / (a page that loads /common/SimpleUI.mjs). Anything else, and an action the service
// does not have, is declined (null), so serveSys goes on with its other handlers. Arguments the
// client got wrong (not UTF-8, not JSON, a member missing or of the wrong type) are a 400 naming
// the member. The JSON, packed and 400 replies carry CORS A, so pages on other subdomains can
// use them.

import { HttpRequest } from "./request";
import { HttpReply } from "./reply";
import { withCors } from "./cors";
import { badRequest } from "./bad-request";
import { parseJson } from "../json/parse";
import { startCollectingJsonProblems, stopCollectingJsonProblems } from "../json/problems";
import { isValidUtf8 } from "../utf8";

const SIMPLE_UI_PAGE = `<html>
<div id="root" class="ui container"></div>
<script src="/common/SimpleUI.mjs" type="module"></script>
</html>
`;

const PACK_ACTION = "/pack_action/";

/** `service`: the @service class instance (`this` in serveSys). */
export function serveSimpleUi<S>(service: S, request: HttpRequest, root: bool = false): HttpReply | null {
  const path = request.path();
  if (request.method == "POST" && path.startsWith(PACK_ACTION)) {
    const body = request.body;
    if (!isValidUtf8(body.dataStart, body.length)) return badRequest("pack_action: the body is not UTF-8");
    startCollectingJsonProblems();
    const packed = service.__packAction(path.substring(PACK_ACTION.length), parseJson(request.bodyText()));
    const problem = stopCollectingJsonProblems();
    if (packed === null) return null;
    return problem !== null ? badRequest(problem) : withCors(HttpReply.bytes("application/octet-stream", packed));
  }
  if (request.method != "GET") return null;
  if (path == "/action_templates") return withCors(HttpReply.json(service.__actionTemplates()));
  if (root && path == "/") return HttpReply.html(SIMPLE_UI_PAGE);
  return null;
}
