/**
 * What a benchmark scenario is. Every figure is a ratio against a baseline measured in the same
 * run (machines are noisy), with the absolute numbers beside it.
 */
import type { Summary } from './stats.js';

export interface Measured {
  /** What was measured, e.g. "ctl-mqtt-gpio -j" or "node -e 0". */
  label: string;
  unit: string;
  summary: Summary;
  samples: number[];
}

export interface Goal {
  /** Human text of the goal, e.g. "at most 2x node -e 0". */
  text: string;
  /** The goal holds when ratio <= maxRatio (and/or subject median <= maxAbsolute). */
  maxRatio?: number;
  maxAbsolute?: number;
}

export interface ScenarioResult {
  name: string;
  title: string;
  subject: Measured;
  baseline: Measured;
  /** subject median / baseline median. */
  ratio: number;
  goal?: Goal;
  met: boolean | null;
  /** Why a goal is not met and what would fix it, or any remark. */
  note?: string;
  /** Extra figures worth keeping (p99, events lost, ...). */
  extra?: Record<string, number | string>;
  /** SVG files written by the scenario, relative to bench/results. */
  plots?: string[];
  /** The scenario that measured it (set by the runner): its next run replaces all of its results. */
  scenario?: string;
}

/**
 * Thrown by a scenario that cannot measure on this machine (e.g. a peer program that cannot be
 * installed). No figure is written; BENCHMARKS.md gets a section saying why, what the scenario
 * would measure and how to run it where it can.
 */
export class NotMeasured extends Error {
  constructor(
    /** Section heading, e.g. "Peer: mqtt-io". */
    readonly heading: string,
    /** Why it was not measured (one paragraph). */
    readonly reason: string,
    /** Further paragraphs or list lines (markdown), e.g. what it would measure and the commands. */
    readonly details: readonly string[] = [],
  ) {
    super(reason);
    this.name = 'NotMeasured';
  }
}

export interface NotMeasuredRecord {
  scenario: string;
  heading: string;
  reason: string;
  details: readonly string[];
}

export interface BenchContext {
  /** Repository root. */
  root: string;
  /** Where scenarios may write plots and temp files. */
  resultsDir: string;
  /** Runs per measurement (after warm-up); scenarios may scale it. */
  runs: number;
  warmup: number;
  log(line: string): void;
}

export interface Scenario {
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<ScenarioResult | ScenarioResult[]>;
}

export function judge(goal: Goal | undefined, ratio: number, subjectMedian: number): boolean | null {
  if (!goal) return null;
  let ok = true;
  if (goal.maxRatio !== undefined) ok &&= ratio <= goal.maxRatio;
  if (goal.maxAbsolute !== undefined) ok &&= subjectMedian <= goal.maxAbsolute;
  return ok;
}
