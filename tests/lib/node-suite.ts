// The set-up most node tests share: a temporary directory and a node started in it before the
// suite, stopped and removed after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'uvu';
import type { RunningNode } from './node-process.js';

export interface NodeContext {
  dir: string;
  node: RunningNode;
}

/** Starts `start(dir)` in a new `tsibase-<name>-` directory before `suite` and removes both after it. */
export function runsNode<C extends NodeContext>(suite: Test<C>, name: string, start: (dir: string, ctx: C) => Promise<RunningNode>): void {
  suite.before(async (ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), `tsibase-${name}-`));
    ctx.node = await start(ctx.dir, ctx);
  });
  suite.after(async (ctx) => {
    await ctx.node?.stop();
    rmSync(ctx.dir, { recursive: true, force: true });
  });
}
