// The compiler's abort handler (asc `--use abort=...`): runtime errors, `assert` and `throw` end
// up here. The source location is kept because such messages come from code, not from a check.
// The build adds this file as an entry of every service, so it exports nothing (an entry's
// exports become module exports).

import { abort } from "./abort";

function handleAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  let text = message !== null ? message : "abort";
  if (fileName !== null) text += " (" + fileName + ":" + line.toString() + ":" + column.toString() + ")";
  abort(text);
}
