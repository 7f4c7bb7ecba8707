import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `use` in a fresh temporary directory, removed afterwards. */
export function inTempDir(use: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-test-'));
  try {
    use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
