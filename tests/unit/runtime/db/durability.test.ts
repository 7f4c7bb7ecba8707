import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { KEYS_PER_BLOCK, blockKey, headKey } from './commit-child.js';
import { hex, makeTempDir, randomInt, removeDir, seededRandom } from './helpers.js';

const childScript = fileURLToPath(new URL('./commit-child.js', import.meta.url));

/** Runs the child, kills it with SIGKILL once `killWhen` says so, and returns its output lines. */
function runAndKill(mode: string, dir: string, killWhen: (lines: string[]) => number | undefined): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, mode, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    let armed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const delay = armed ? undefined : killWhen(output.split('\n').filter(Boolean));
      if (delay === undefined) return;
      armed = true;
      setTimeout(() => child.kill('SIGKILL'), delay);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited with ${code ?? signal} before being killed`));
      else resolve(output.split('\n').filter(Boolean));
    });
  });
}

const isAcknowledgement = (line: string) => /^\d+$/.test(line);

async function reopened<T>(dir: string, read: (store: LmdbStore) => T): Promise<T> {
  const store = LmdbStore.open(dir);
  try {
    return read(store);
  } finally {
    await store.close();
  }
}

test('a committed block survives kill -9', async () => {
  const dir = makeTempDir();
  try {
    await runAndKill('once', dir, (lines) => (lines.includes('committed') ? 0 : undefined));
    await reopened(dir, (store) => {
      assert.is(hex(store.get(DbId.service, Uint8Array.of(1, 2, 3))), '040506');
      assert.is(hex(store.getSequential(DbId.historyEvent, 1n)), '07');
    });
  } finally {
    removeDir(dir);
  }
});

test('kill -9 during a stream of commits leaves the last or the next block, never a mix', async () => {
  const random = seededRandom(41);
  const dir = makeTempDir();
  try {
    let previous = 0;
    let killedInCommit = 0;
    // Run until several kills have landed inside a commit (most of a block's time is its commit).
    for (let round = 0; round < 30 && (round < 4 || killedInCommit < 3); round++) {
      const lines = await runAndKill('blocks', dir,
        (printed) => (printed.some(isAcknowledgement) ? randomInt(random, 150) : undefined));
      const acknowledged = Number(lines.filter(isAcknowledgement).pop());
      if (lines[lines.length - 1].startsWith('commit')) killedInCommit++;
      const head = await reopened(dir, (store) => {
        const head = Buffer.from(store.get(DbId.service, headKey)!).readUInt32BE(0);
        for (let i = 0; i < KEYS_PER_BLOCK; i++) {
          const value = Buffer.from(store.get(DbId.service, blockKey(i))!);
          assert.is(value.readUInt32BE(0), head, `key ${i} belongs to block ${head}`);
        }
        return head;
      });
      assert.ok(head === acknowledged || head === acknowledged + 1,
        `head ${head} after acknowledging ${acknowledged}`);
      assert.ok(acknowledged > previous, 'each run continues from the state the last one left');
      previous = head;
    }
    assert.ok(killedInCommit >= 3, `only ${killedInCommit} kills landed inside a commit`);
  } finally {
    removeDir(dir);
  }
});

test.run();
