import type { FunctionPlan } from './analyse-function.js';

/**
 * Leaf functions (no calls) with frames up to this size skip stack accounting: every function
 * that does account reserves room for the largest of them on top of its own frame, and the host
 * reserves more than this per `call`, which covers a leaf export called by the host.
 */
const UNCOUNTED_LEAF_FRAME_BYTES = 1024;

/** Stack bytes each function reserves on entry (0: none, a small leaf). */
export function stackCharges(plans: readonly FunctionPlan[]): number[] {
  const isUncountedLeaf = (plan: FunctionPlan) => !plan.makesCalls && plan.frameBytes <= UNCOUNTED_LEAF_FRAME_BYTES;
  const leafAllowance = plans.reduce((max, plan) => (isUncountedLeaf(plan) ? Math.max(max, plan.frameBytes) : max), 0);
  return plans.map((plan) => (isUncountedLeaf(plan) ? 0 : plan.frameBytes + leafAllowance));
}
