// The chaos checks read the nodes through their APIs; no fault touches that way to a node, so a
// node that takes longer than API_DEADLINE_MS to answer is not answering (and the run must not
// wait on it forever: undici's own limit is five minutes). The request itself is left to end.

export const API_DEADLINE_MS = 15_000;

/** `request`'s answer, or an error naming `what` once API_DEADLINE_MS have passed. */
export async function withinDeadline<T>(what: string, request: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${API_DEADLINE_MS / 1000} s`)), API_DEADLINE_MS);
  });
  request.catch(() => undefined);
  try {
    return await Promise.race([request, late]);
  } finally {
    clearTimeout(timer);
  }
}
