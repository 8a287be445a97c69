/**
 * The scenario rig on the `sim` backend: a simulated board in a temp directory (two chips:
 * `gpiochip0` 8 lines, `gpiochip1` 16 lines labelled `gpio-expander`) and a real mosquitto.
 * Removed after the test.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { createSimBoard, type SimBoardLayout } from '../../../src/sim/gpio/sim-board.js';
import { startTestBroker } from '../../helpers/test-broker.js';
import type { GpioServiceRig } from './rig.js';
import { GPIO_MAIN } from './service-run.js';
import { waitUntil } from '../../helpers/wait-until.js';

const LAYOUT: SimBoardLayout = {
  gpiochip0: { lines: 8, label: 'pinctrl-sim' },
  gpiochip1: { lines: 16, label: 'gpio-expander' },
};
const NAMES = Object.keys(LAYOUT);

/** The sim rig, with its board directory for sim-only tests. */
export async function simRig(t: TestContext): Promise<GpioServiceRig & { simDir: string }> {
  const tmpDir = mkdtempSync(join(tmpdir(), 'ctl-gpio-it-'));
  const simDir = join(tmpDir, 'sim');
  createSimBoard(simDir, LAYOUT);
  const broker = await startTestBroker();
  t.after(async () => {
    await broker.close();
    rmSync(tmpDir, { recursive: true, force: true });
  });
  const lineFile = (chip: number, offset: number, file: string) => join(simDir, NAMES[chip]!, `sim_gpio${offset}`, file);
  return {
    name: 'sim',
    timeScale: 1,
    command: GPIO_MAIN,
    simDir,
    brokerUrl: broker.url,
    tmpDir,
    chips: NAMES.map((name) => {
      const spec = LAYOUT[name]!;
      return { path: `/dev/${name}`, lines: typeof spec === 'number' ? spec : spec.lines };
    }),
    serviceArgs: () => ['--gpio-backend', 'sim', '--gpio-sim', simDir],
    setInput: async (chip, offset, high) => writeFileSync(lineFile(chip, offset, 'pull'), high ? 'pull-up' : 'pull-down'),
    level: async (chip, offset) => readFileSync(lineFile(chip, offset, 'value'), 'latin1').trim() === '1',
    removeChip: async (chip) => rmSync(join(simDir, NAMES[chip]!), { recursive: true }),
    restoreChip: async (chip) => {
      createSimBoard(simDir, { [NAMES[chip]!]: LAYOUT[NAMES[chip]!]! });
    },
    reset: async () => {
      createSimBoard(simDir, LAYOUT);
    },
    spike: async (chip, offset) => {
      // The sim reads the pull file when it is told the file changed: two back-to-back writes can
      // reach it as one read of the second, a spike it never saw. So the spike lasts until the
      // line's value shows it (a few ms), still far shorter than any debounce a scenario sets.
      writeFileSync(lineFile(chip, offset, 'pull'), 'pull-up');
      await waitUntil(
        () => readFileSync(lineFile(chip, offset, 'value'), 'latin1').trim() === '1',
        `chip ${chip} line ${offset} to go high`,
        {
          timeoutMs: 5000,
          intervalMs: 1,
        },
      );
      writeFileSync(lineFile(chip, offset, 'pull'), 'pull-down');
    },
    edgeHoldMs: 6,
    pacedPulses: 60,
    globalNumber: async (chip, offset) => {
      // The board describes its chips in <sim dir>/sys/class/gpio as the kernel does (bases from 496 down).
      const name = NAMES[chip]!;
      const spec = LAYOUT[name] as { lines: number; label: string };
      const base = 512 - 16 * (chip + 1);
      const classDir = join(simDir, 'sys', 'class', 'gpio', `gpiochip${base}`);
      mkdirSync(join(classDir, 'device', name), { recursive: true });
      writeFileSync(join(classDir, 'base'), `${base}\n`);
      writeFileSync(join(classDir, 'ngpio'), `${spec.lines}\n`);
      writeFileSync(join(classDir, 'label'), `${spec.label}\n`);
      return base + offset;
    },
  };
}
