import type { FunctionPlan } from './analyse-function.js';

/**
 * Deepest stack a function may use without reserving it itself, its own frame and the deepest
 * chain of such functions below it included. That depth is reserved by the nearest caller that
 * does account, so it costs the recursion of that caller's frames; beyond it a function accounts.
 */
const UNCOUNTED_DEPTH_BYTES = 2048;

/**
 * Steps (functions and edges looked at) allowed while choosing the functions that break
 * cycles; past it, every function left in a cycle accounts. Bounds admission time on huge
 * tangled modules (tens of ms), identically on every node.
 */
const CYCLE_BREAKING_WORK = 1_000_000;

export interface CallGraph {
  /** Imported functions, which come first in the function index space. */
  readonly importCount: number;
  /** Functions of the element segments: what call_indirect can reach. */
  readonly tableFunctions: readonly number[];
  /** Per defined function: the host or the engine may call it directly (see hostEntryPoints). */
  readonly entryPoints: readonly boolean[];
}

/**
 * Stack bytes each defined function reserves on entry (0: none).
 *
 * Only a cycle of calls can deepen the stack without bound, so only some functions account:
 * enough to break every cycle (recursion, direct or through the table, including the cycles
 * that error paths make, such as an allocator whose failure calls an abort handler that
 * allocates), those the host calls (each call from the host starts a new chain), and those whose
 * chain of non-accounting callees would be deeper than UNCOUNTED_DEPTH_BYTES. Each reserves its
 * own frame plus the deepest chain of non-accounting functions it can call, so every frame on the
 * stack is counted by the accounting function below it. The rest, most small helpers, run
 * without touching the stack counter. Imports are the host's: a nested `call` reserves its own.
 */
export function stackCharges(plans: readonly FunctionPlan[], graph: CallGraph): number[] {
  const callees = calleesOf(plans, graph);
  const accounts = cycleBreakers(callees);
  graph.entryPoints.forEach((entry, f) => {
    if (entry) accounts[f] = true;
  });
  const charges = new Array<number>(plans.length).fill(0);
  // The depth of a function that does not account: what a caller that accounts reserves for it.
  const uncountedDepth = new Array<number>(plans.length).fill(0);
  // Without the calls into accounting functions the graph has no cycle: each component is one
  // function, and callees come first.
  const uncountedCallees = callees.map((list) => list.filter((f) => !accounts[f]));
  for (const component of componentsCalleesFirst(allFunctions(plans.length), (f) => uncountedCallees[f]!)) {
    const f = component[0]!;
    let below = 0;
    for (const callee of uncountedCallees[f]!) below = Math.max(below, uncountedDepth[callee]!);
    const depth = plans[f]!.frameBytes + below;
    if (accounts[f] || depth > UNCOUNTED_DEPTH_BYTES) charges[f] = depth;
    else uncountedDepth[f] = depth;
  }
  return charges;
}

/** Defined callees of each defined function (indices among the defined functions). */
function calleesOf(plans: readonly FunctionPlan[], graph: CallGraph): number[][] {
  const defined = (index: number) => index - graph.importCount;
  // An index out of range (the module is refused by validation later) is no function to reach.
  const table = [...new Set(graph.tableFunctions.map(defined).filter((f) => f >= 0 && f < plans.length))];
  return plans.map((plan) => {
    const direct = plan.directCallees.map(defined).filter((f) => f >= 0);
    return plan.callsIndirectly ? [...new Set([...direct, ...table])] : direct;
  });
}

/**
 * Functions whose accounting breaks every cycle of calls. Within each cycle-carrying component
 * the function with the most calls in and out inside it (in-degree times out-degree, the first
 * on a tie) is taken, then what remains of the component is looked at again. A function that
 * calls itself is always taken. The choice depends on the module alone.
 */
function cycleBreakers(callees: readonly (readonly number[])[]): boolean[] {
  const taken = new Array<boolean>(callees.length).fill(false);
  let work = CYCLE_BREAKING_WORK;
  const pending = componentsCalleesFirst(allFunctions(callees.length), (f) => callees[f]!);
  while (pending.length > 0) {
    const component = pending.pop()!;
    if (component.length === 1 && !callees[component[0]!]!.includes(component[0]!)) continue;
    // Each round walks the component's edges a few times (degrees, scores, components).
    work -= component.length + 4 * component.reduce((sum, f) => sum + callees[f]!.length, 0);
    if (work < 0) {
      for (const f of component) taken[f] = true;
      continue;
    }
    // The calls inside the component (its members are not taken yet).
    const inside = new Set(component);
    const edges = new Map(component.map((f) => [f, callees[f]!.filter((callee) => inside.has(callee))]));
    const inDegree = new Map<number, number>();
    for (const out of edges.values()) for (const callee of out) inDegree.set(callee, (inDegree.get(callee) ?? 0) + 1);
    let chosen = component[0]!;
    let best = -1;
    for (const [f, out] of edges) {
      const score = out.includes(f) ? Infinity : (inDegree.get(f) ?? 0) * out.length;
      if (score > best || (score === best && f < chosen)) [chosen, best] = [f, score];
    }
    taken[chosen] = true;
    // Calls into the chosen function leave the rest and are ignored there.
    const rest = component.filter((f) => f !== chosen);
    pending.push(...componentsCalleesFirst(rest, (f) => edges.get(f)!));
  }
  return taken;
}

function allFunctions(count: number): number[] {
  return Array.from({ length: count }, (_, f) => f);
}

/**
 * Strongly connected components of the graph of `nodes` and the edges `callees` gives (edges
 * leaving `nodes` ignored), by Tarjan's algorithm, iteratively so a long call chain cannot
 * exhaust the host's stack. Each component comes after every component it calls.
 */
function componentsCalleesFirst(nodes: readonly number[], callees: (f: number) => readonly number[]): number[][] {
  const order = new Map<number, number>();
  const low = new Map<number, number>();
  for (const f of nodes) order.set(f, -1);
  const onStack = new Set<number>();
  const stack: number[] = [];
  const components: number[][] = [];
  let visited = 0;
  const visit = (f: number) => {
    order.set(f, visited);
    low.set(f, visited++);
    stack.push(f);
    onStack.add(f);
  };
  for (const root of nodes) {
    if (order.get(root) !== -1) continue;
    // Each entry: a function, how many of its callees were looked at, and its callees.
    const path: [number, number, readonly number[]][] = [[root, 0, callees(root)]];
    visit(root);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const [f, next, out] = top;
      if (next < out.length) {
        top[1]++;
        const callee = out[next]!;
        const seen = order.get(callee);
        if (seen === -1) {
          visit(callee);
          path.push([callee, 0, callees(callee)]);
        } else if (seen !== undefined && onStack.has(callee)) {
          low.set(f, Math.min(low.get(f)!, seen));
        }
        continue;
      }
      path.pop();
      if (path.length > 0) {
        const caller = path[path.length - 1]![0];
        low.set(caller, Math.min(low.get(caller)!, low.get(f)!));
      }
      if (low.get(f) === order.get(f)) {
        const component: number[] = [];
        let member: number;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== f);
        components.push(component);
      }
    }
  }
  return components;
}
