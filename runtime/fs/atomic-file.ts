import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Replaces `file` with `content` so that a crash leaves the old file or the new one, never a
 * mix, and the new one is on disk when this returns (the node's config and keys files, kept
 * snapshot states).
 */
export function replaceFile(file: string, content: string | Uint8Array, mode = 0o644): void {
  const temporary = `${file}.${process.pid}.tmp`;
  // A leftover temporary file would keep its old mode; the new one is created with `mode`.
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  syncDirectory(dirname(file));
}

/** Makes a rename in `dir` durable. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
