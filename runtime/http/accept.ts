// docs/http.md §5: does the client prefer application/octet-stream to JSON? Exact type beats
// application/* beats */*, then q; a tie or no preference means JSON.

interface Preference { q: number; specificity: number }

function preference(accept: string, type: string): Preference | undefined {
  const [major] = type.split('/');
  let best: Preference | undefined;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const specificity = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' ? 1 : 0;
    if (specificity === 0 || Number.isNaN(q)) continue;
    if (!best || specificity > best.specificity) best = { q, specificity };
  }
  return best;
}

/** Verdicts by Accept header: a client sends the same one with every request. */
const verdicts = new Map<string, boolean>();
const VERDICTS_KEPT = 256;

export function prefersFracpack(accept: string | undefined): boolean {
  if (!accept) return false;
  let verdict = verdicts.get(accept);
  if (verdict === undefined) {
    verdict = decide(accept);
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(accept, verdict);
  }
  return verdict;
}

function decide(accept: string): boolean {
  const binary = preference(accept, 'application/octet-stream');
  const jsonPref = preference(accept, 'application/json');
  if (!binary || binary.q === 0) return false;
  if (!jsonPref || jsonPref.q === 0) return true;
  if (binary.specificity !== jsonPref.specificity) return binary.specificity > jsonPref.specificity;
  return binary.q > jsonPref.q;
}
