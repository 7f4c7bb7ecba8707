import type { Action } from '../../host-api/types/index.js';

/** An action as the test harnesses take it: names, hex and numbers as packing accepts them. */
export type ActionInput = Parameters<typeof Action.pack>[0];
