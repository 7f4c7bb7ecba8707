import { runSimulation, type SimulationOptions } from './simulation.js';

// Runs consecutive seeds and sums them up; a failing seed reproduces its run exactly.

export interface SimulationSummary {
  readonly schedules: number;
  readonly steps: number;
  readonly failures: { readonly seed: number; readonly violations: readonly string[] }[];
}

export function runSimulations(firstSeed: number, count: number, options: SimulationOptions = {}): SimulationSummary {
  let steps = 0;
  const failures: SimulationSummary['failures'] = [];
  for (let seed = firstSeed; seed < firstSeed + count; seed++) {
    const result = runSimulation(seed, options);
    steps += result.steps;
    if (result.violations.length > 0) failures.push({ seed, violations: result.violations });
  }
  return { schedules: count, steps, failures };
}
