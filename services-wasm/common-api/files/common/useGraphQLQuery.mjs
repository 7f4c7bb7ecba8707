// useGraphQLQuery.mjs: React hooks for a service's /graphql endpoint. React comes from the page
// (this file imports none): pass it once with `setReact(React)`, or as the last argument.

let pageReact = globalThis.React;

/** The React the hooks use (the page's own copy). */
export function setReact(React) {
  pageReact = React;
}

async function postQuery(url, query) {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/graphql' }, body: query });
  if (!response.ok) throw new Error((await response.text()) || `HTTP ${response.status}`);
  const reply = await response.json();
  if (reply.errors?.length) throw new Error(reply.errors.map((e) => e.message).join('; '));
  return reply.data;
}

/**
 * Runs `query` against `url` (e.g. "/graphql") when the component mounts and whenever the
 * query changes. Returns `[{isLoading, isError, errorMessage, data}, refetch]`.
 */
export function useGraphQLQuery(url, query, React = pageReact) {
  if (!React) throw new Error('useGraphQLQuery needs React: call setReact(React) first');
  const [state, setState] = React.useState({ isLoading: true, isError: false, errorMessage: '', data: undefined });
  const [generation, setGeneration] = React.useState(0);
  React.useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, isLoading: true }));
    postQuery(url, query).then(
      (data) => current && setState({ isLoading: false, isError: false, errorMessage: '', data }),
      (err) => current && setState({ isLoading: false, isError: true, errorMessage: err.message, data: undefined }),
    );
    return () => {
      current = false;
    };
  }, [url, query, generation]);
  return [state, () => setGeneration((g) => g + 1)];
}

/**
 * A paged query over a GraphQL connection (docs/serving.md §4.7): `query` is a function of the paging
 * arguments text (e.g. `first: 10, after: "..."`) returning the query; `pick(data)` returns the
 * connection. Returns `{...state, items, pageInfo, next, previous, first, last}`.
 */
export function usePagedQuery(url, pageSize, query, pick, React = pageReact) {
  if (!React) throw new Error('usePagedQuery needs React: call setReact(React) first');
  const [args, setArgs] = React.useState(`first: ${pageSize}`);
  const [state] = useGraphQLQuery(url, query(args), React);
  const connection = state.data ? pick(state.data) : undefined;
  const pageInfo = connection?.pageInfo;
  return {
    ...state,
    items: connection?.edges?.map((e) => e.node) ?? [],
    pageInfo,
    first: () => setArgs(`first: ${pageSize}`),
    last: () => setArgs(`last: ${pageSize}`),
    next: () => pageInfo?.endCursor && setArgs(`first: ${pageSize}, after: ${JSON.stringify(pageInfo.endCursor)}`),
    previous: () => pageInfo?.startCursor && setArgs(`last: ${pageSize}, before: ${JSON.stringify(pageInfo.startCursor)}`),
  };
}
