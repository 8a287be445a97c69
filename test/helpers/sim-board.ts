/**
 * A simulated GPIO board in a temporary directory for one test: the sim backend on it, and the
 * board's files. Everything is removed after the test (backend closed first), after whatever was
 * set up on the board later (see cleanup.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { SimBackend, type SimBackendOptions } from '../../src/sim/gpio/sim-backend.js';
import { createSimBoard, type SimBoardLayout } from '../../src/sim/gpio/sim-board.js';
import { chipNameOf, lineDirOf } from '../../src/sim/gpio/sim-files.js';
import { deferCleanup } from './cleanup.js';

export { createSimBoard, type SimBoardLayout } from '../../src/sim/gpio/sim-board.js';

export interface TempSimBoard {
  /** The sim dir (give it to the service as `--gpio-sim`). */
  dir: string;
  backend: SimBackend;
  /** `<dir>/<chip>/sim_gpio<offset>` for a chip name or path. */
  lineDir(chip: string, offset: number): string;
}

export function tempSimBoard(
  t: TestContext,
  layout: SimBoardLayout = { gpiochip0: 8 },
  options: Omit<SimBackendOptions, 'dir'>,
): TempSimBoard {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-mqtt-sim-'));
  createSimBoard(dir, layout);
  const backend = new SimBackend({ ...options, dir });
  deferCleanup(t, async () => {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, backend, lineDir: (chip, offset) => lineDirOf(join(dir, chipNameOf(chip)), offset) };
}
