import { Limits, isSubjectiveMode } from '../../../host-api/abi/databases.js';
import { HostError } from '../errors.js';
import type { HostState } from '../host-state.js';
import type { ImportGroup } from './import-group.js';
import { chargeHostCall } from './fuel-schedule.js';

// Nested views of the subjective database (docs/host-abi.md §3). The node runs one context at a time on
// its chain thread, so an outermost commit never meets a conflicting writer and returns 1.

function requireSubjectiveMode(ctx: HostState, what: string): void {
  if (!isSubjectiveMode(ctx.mode)) throw new HostError('HOST_ACCESS_DENIED', `${what}: the subjective database is not available in ${ctx.mode} mode`);
}

/** Closes the innermost open view (commit or abort), returning its checkpoint: only one the running action opened. */
function popView(ctx: HostState, what: string): number {
  requireSubjectiveMode(ctx, what);
  if (ctx.subjectiveViews.length === 0) throw new HostError('HOST_BAD_ARGUMENT', `${what}: no subjective view is open`);
  if (ctx.subjectiveViews.length <= ctx.frame.subjectiveDepth) {
    throw new HostError('HOST_BAD_ARGUMENT', `${what}: the open view belongs to a calling action (${what} requires checkoutSubjective in the same action)`);
  }
  return ctx.subjectiveViews.pop()!;
}

export const subjectiveImports: ImportGroup = {
  checkoutSubjective: (host) => (): void => {
    const ctx = host.context;
    chargeHostCall(ctx.meter, 0);
    requireSubjectiveMode(ctx, 'checkoutSubjective');
    if (ctx.subjectiveViews.length >= Limits.maxSubjectiveDepth) {
      throw new HostError('HOST_LIMIT', `checkoutSubjective: views nest at most ${Limits.maxSubjectiveDepth} deep`);
    }
    ctx.subjectiveViews.push(ctx.store.subjective.checkpoint());
  },
  commitSubjective: (host) => (): number => {
    const ctx = host.context;
    chargeHostCall(ctx.meter, 0);
    ctx.store.subjective.release(popView(ctx, 'commitSubjective'));
    if (ctx.subjectiveViews.length === 0) ctx.store.subjective.commit();
    return 1;
  },
  abortSubjective: (host) => (): void => {
    const ctx = host.context;
    chargeHostCall(ctx.meter, 0);
    ctx.store.subjective.rollback(popView(ctx, 'abortSubjective'));
  },
};
