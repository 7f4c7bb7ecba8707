// The head block of a running node, from its explorer service, and waiting for new blocks.
import type { ChainClient } from '../../runtime/cli/chain-client.js';

export async function headBlockNum(client: ChainClient): Promise<number> {
  const { headBlock } = await client.graphql('explorer', '{ headBlock { header { blockNum } } }') as { headBlock: { header: { blockNum: number } } };
  return headBlock.header.blockNum;
}

/** Waits (10 s at most) until the head is at least `after + count`; answers the head. */
export async function waitForBlocks(client: ChainClient, after: number, count: number): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const head = await headBlockNum(client);
    if (head >= after + count) return head;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${count} blocks after ${after}`);
}
