// What the structure tests share: running one of the repository's check scripts, on the
// repository or on a tree of files made for one test in a temporary directory.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Runs scripts/`script` on `root` (the repository when absent). */
export function runCheck(script: string, root?: string) {
  return spawnSync(process.execPath, [join(process.cwd(), 'scripts', script), ...(root ? [root] : [])], { encoding: 'utf8' });
}

/** A temporary tree of `files` (path → text), removed once `run` returns. */
export function withTree(files: Record<string, string>, run: (root: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'tsibase-structure-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    run(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
