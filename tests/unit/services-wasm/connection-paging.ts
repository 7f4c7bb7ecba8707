// A client paging through a served Connection: forward by `first` from each page's end cursor,
// then backward by `last` from each page's start cursor, as the Cursor Connections spec pages.

export interface Page {
  edges: { cursor: string }[];
  pageInfo: { hasPreviousPage: boolean; hasNextPage: boolean };
}

export type PageArgs = { first: number; after?: string } | { last: number; before?: string };

/** The cursors of every edge `page` serves, in order, read forward and read backward. */
export async function cursorsBothWays(page: (args: PageArgs) => Promise<Page>, first: number, last: number): Promise<{ forward: string[]; backward: string[] }> {
  const forward: string[] = [];
  for (let after: string | undefined; ;) {
    const p = await page({ first, ...(after ? { after } : {}) });
    forward.push(...p.edges.map((e) => e.cursor));
    if (!p.pageInfo.hasNextPage) break;
    after = p.edges.at(-1)!.cursor;
  }
  const backward: string[] = [];
  for (let before: string | undefined; ;) {
    const p = await page({ last, ...(before ? { before } : {}) });
    backward.unshift(...p.edges.map((e) => e.cursor));
    if (!p.pageInfo.hasPreviousPage) break;
    before = p.edges[0]!.cursor;
  }
  return { forward, backward };
}
