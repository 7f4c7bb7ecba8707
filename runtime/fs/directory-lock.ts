import { closeSync, constants, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { flockSync } from 'fs-ext';
import { TsibaseError } from '../../host-api/errors.js';

// One process at a time writes a node directory (docs/administration.md §8 item 4): the node,
// and the commands that write its database (create-snapshot, load-snapshot), each hold an
// exclusive flock(2) on <dir>/node.lock while they run. The lock belongs to the open file, so the
// kernel releases it when the process ends however it ends (kill -9 included): a lock file left
// behind never blocks the next start. The file holds the holder's process id, which the refusal
// names.

/** The lock file of a node directory. */
export const LOCK_FILE = 'node.lock';

/** A node directory held by this process until `release`. */
export class DirectoryLock {
  private constructor(private fd: number | undefined) {}

  /** Takes `dir`'s lock; throws NODE_DIR_IN_USE at once if another process holds it, NODE_DIR_MISSING if there is no `dir`. */
  static take(dir: string): DirectoryLock {
    if (!existsSync(dir)) throw new TsibaseError('NODE_DIR_MISSING', `there is no node directory ${dir}`);
    const file = join(dir, LOCK_FILE);
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
    try {
      flockSync(fd, 'exnb');
    } catch (err) {
      closeSync(fd);
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' && (err as NodeJS.ErrnoException).code !== 'EWOULDBLOCK') throw err;
      throw new TsibaseError('NODE_DIR_IN_USE', `the node directory ${dir} is in use${holderOf(file)}: only one tsibase process at a time may run on a node directory (a node, create-snapshot or load-snapshot); stop it first, or use another directory`);
    }
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`, 0);
    return new DirectoryLock(fd);
  }

  /** Gives the directory up (closing the file releases the lock; the file stays, harmlessly). */
  release(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** ' by process N' when the lock file names its holder. */
function holderOf(file: string): string {
  try {
    const pid = /^(\d+)\n/.exec(readFileSync(file, 'latin1'))?.[1];
    return pid === undefined ? '' : ` by process ${pid}`;
  } catch {
    return '';
  }
}
