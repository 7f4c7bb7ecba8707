import { existsSync, rmSync } from 'node:fs';
import { DirectoryLock } from '../fs/directory-lock.js';

/** Deletes a node's data (`tsibase dev --reset`), unless another process runs on it (which keeps it). */
export function resetData(data: string): void {
  const lock = existsSync(data) ? DirectoryLock.take(data) : undefined;
  try {
    rmSync(data, { recursive: true, force: true });
  } finally {
    lock?.release();
  }
}
