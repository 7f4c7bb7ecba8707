// useGraphQLQuery.mjs: React hooks for a service's /graphql endpoint, with psibase's names and
// results (docs/serving.md §4.2). React is the page's global `React` (what
// /common/react.production.min.js defines), looked up when a hook runs, so this module may load
// before React does; a page that bundles its own React passes it to `setReact` once.

import { postGraphQLGetJson } from './common-lib.js';

let pageReact = null;

/** The React the hooks use when the page has no global one. */
export function setReact(React) {
  pageReact = React;
}

function react() {
  const React = pageReact ?? globalThis.React;
  if (!React) throw new Error('useGraphQLQuery needs React: load /common/react.production.min.js or call setReact(React)');
  return React;
}

/**
 * Runs `query` against `url` (e.g. "/graphql") when the component mounts, whenever the url or
 * query changes, and after `invalidateQuery()`. Returns `[{isLoading, isError, data?, errors?},
 * invalidateQuery]`.
 */
export function useGraphQLQuery(url, query) {
  const React = react();
  const [refetch, setRefetch] = React.useState(true);
  const [result, setResult] = React.useState({ isLoading: true, isError: false });
  React.useEffect(() => {
    if (!url || !query || !refetch) return undefined;
    let current = true;
    setResult((previous) => ({ ...previous, isLoading: true }));
    postGraphQLGetJson(url, query).then(
      (reply) => current && setResult({ ...reply, isLoading: false, isError: Boolean(reply.errors) }),
      (err) => current && setResult({ isLoading: false, isError: true, errors: [{ message: String(err) }] }),
    ).finally(() => current && setRefetch(false));
    return () => {
      current = false;
    };
  }, [url, query, refetch]);
  return [result, () => setRefetch(true)];
}

/**
 * A paged query over a GraphQL connection: `@page@` in `query` is replaced by the paging
 * arguments (`first:N`, `after:"cursor"`, ...). `opts`: `{pageSize, getPageInfo(result) ->
 * {hasPreviousPage, hasNextPage, startCursor, endCursor} or null, defaultArgs?}`.
 * Returns `{result, hasPreviousPage, hasNextPage, next(), previous(), first(), last()}`.
 */
export function useGraphQLPagedQuery(url, query, opts) {
  const React = react();
  const [args, setArgs] = React.useState(opts.defaultArgs || `first:${opts.pageSize}`);
  const [result, invalidateQuery] = useGraphQLQuery(url, query.replace('@page@', args));
  const pageInfo = opts.getPageInfo(result) || { hasPreviousPage: false, hasNextPage: false, startCursor: '', endCursor: '' };
  const page = (text) => () => {
    setArgs(text);
    invalidateQuery();
  };
  return {
    result,
    hasPreviousPage: pageInfo.hasPreviousPage,
    hasNextPage: pageInfo.hasNextPage,
    next: page(`first:${opts.pageSize} after:"${pageInfo.endCursor}"`),
    previous: page(`last:${opts.pageSize} before:"${pageInfo.startCursor}"`),
    first: page(`first:${opts.pageSize}`),
    last: page(`last:${opts.pageSize}`),
  };
}
