/**
 * Builds a simulated board directory for the sim backend (tests, the demo): what the kernel's
 * gpio-sim gives after its configfs setup, as plain files (layout in sim-files.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineDirOf } from './sim-files.js';

export interface SimChipSpec {
  /** Number of lines (`sim_gpio0` .. `sim_gpio<lines-1>`). */
  lines: number;
  /** Chip label (a `label` file); the backend says `gpio-sim` without one. */
  label?: string;
  /** Line names by offset (a `name` file per named line). */
  lineNames?: readonly string[];
  /** The chip has no interrupts (a `no_irq` file): edge lines are polled. */
  noIrq?: boolean;
}

/** Chip name (`gpiochip0`) → number of lines or a full spec. */
export type SimBoardLayout = Readonly<Record<string, number | SimChipSpec>>;

/**
 * Creates `<dir>/<chip>/sim_gpio<N>/{pull,value}` for every chip of `layout`, every line pulled
 * down and reading 0. Existing files are reset, so the same call puts a board back to rest.
 * Returns the chip directories by name.
 */
export function createSimBoard(dir: string, layout: SimBoardLayout): Record<string, string> {
  const chipDirs: Record<string, string> = {};
  for (const [chip, specOrCount] of Object.entries(layout)) {
    const spec: SimChipSpec = typeof specOrCount === 'number' ? { lines: specOrCount } : specOrCount;
    if (!Number.isInteger(spec.lines) || spec.lines < 1) {
      throw new RangeError(`sim chip ${chip}: lines must be a positive integer (got ${spec.lines})`);
    }
    const chipDir = join(dir, chip);
    for (let offset = 0; offset < spec.lines; offset++) {
      const lineDir = lineDirOf(chipDir, offset);
      mkdirSync(lineDir, { recursive: true });
      writeFileSync(join(lineDir, 'pull'), 'pull-down\n');
      writeFileSync(join(lineDir, 'value'), '0\n');
      const name = spec.lineNames?.[offset];
      if (name) writeFileSync(join(lineDir, 'name'), name + '\n');
    }
    if (spec.label !== undefined) writeFileSync(join(chipDir, 'label'), spec.label + '\n');
    if (spec.noIrq) writeFileSync(join(chipDir, 'no_irq'), '');
    chipDirs[chip] = chipDir;
  }
  return chipDirs;
}
