// Which implementation runs a record's member loops. Compiled code is faster, but `new Function`
// throws where a Content-Security-Policy forbids 'unsafe-eval' (a service may send one for its
// pages), so by default the compiled loops are used only where compiling works.

import { FracpackError } from '../errors.js';
import { compileMemberCode } from './compiled-member-code.js';
import { interpretMemberCode } from './interpreted-member-code.js';
import type { MemberCode, MemberLayoutInput } from './member-code.js';

/** `compiled`: straight-line code made with `new Function`; `interpreted`: loops over the members. */
export type MemberLoops = 'compiled' | 'interpreted';

export type MemberCodeFactory = (layout: MemberLayoutInput) => MemberCode;

let canCompile: boolean | undefined;

/** Whether this realm lets code be compiled from a string; tried once. */
function compilingAllowed(): boolean {
  if (canCompile === undefined) {
    try {
      canCompile = new Function('return true')() === true;
    } catch {
      // EvalError under a CSP without 'unsafe-eval'; any other refusal means the same.
      canCompile = false;
    }
  }
  return canCompile;
}

/** The maker of member code for `loops`; without a choice, compiled where compiling is allowed. */
export function memberCodeFactory(loops: MemberLoops | undefined): MemberCodeFactory {
  switch (loops) {
    case 'compiled': return compileMemberCode;
    case 'interpreted': return interpretMemberCode;
    case undefined: return (layout) => (compilingAllowed() ? compileMemberCode : interpretMemberCode)(layout);
    default: throw new FracpackError('FRACPACK_SCHEMA', `memberLoops must be 'compiled' or 'interpreted', got ${JSON.stringify(loops)}`);
  }
}
