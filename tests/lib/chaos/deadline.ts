// Waiting on what may never answer: a node's API (no fault touches the test's way to a node, so
// one that takes longer than API_DEADLINE_MS is not answering, and undici's own limit is five
// minutes), a node asked to stop, pushes under way. What was waited on is left to end.

export const API_DEADLINE_MS = 15_000;

/** `promise`'s outcome, or an error naming `what` once `ms` have passed. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A read of a node's API, within API_DEADLINE_MS. */
export function withinDeadline<T>(what: string, request: Promise<T>): Promise<T> {
  return within(API_DEADLINE_MS, what, request);
}
