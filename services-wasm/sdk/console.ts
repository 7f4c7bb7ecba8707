import { writeConsole as hostWriteConsole } from "./host";
import { encodeUtf8 } from "./utf8";

/** Appends `text` to the current action's console trace. */
export function writeConsole(text: string): void {
  const bytes = encodeUtf8(text);
  hostWriteConsole(bytes.dataStart, bytes.length);
}
