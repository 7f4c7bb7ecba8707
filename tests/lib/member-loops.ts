// Both ways a record's member loops run (host-api/fracpack/codecs/member-loops.ts): tests that
// cover records run once per way, through compileSchema's memberLoops option.
import type { MemberLoops } from '../../host-api/index.js';

export const MEMBER_LOOPS: readonly MemberLoops[] = ['compiled', 'interpreted'];
