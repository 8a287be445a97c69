/**
 * Every GPIO service scenario, for the rigs that run them: `test/integration/gpio/*.it.test.ts`
 * on the sim backend, and the HIL suite on the kernel's gpio-sim with `--gpio-backend cdev`:
 *
 *   for (const s of gpioScenarios.io) test(`${s.name} (${rig})`, async (t) => s.run(t, await makeRig(t)));
 */
import type { TestContext } from 'node:test';
import {
  chatterNeverCounts,
  kill9InHighPhase,
  kill9LosesAtMostOneSaveWindow,
  pacedPulsesExact,
  sigtermDuringPulseTrain,
  sigtermInHighPhase,
  totalOnPersisted,
} from './counter-scenarios.js';
import { boardFileOfARealController, boardNamesOutsideTheReservedList, singleConfigOfAnOlderController } from './drop-in-scenarios.js';
import { reloadInPlace } from './reload-scenarios.js';
import { chipMissingAtStart, chipRemovedAndRestored, corruptStateFile } from './fault-scenarios.js';
import { inputsAndInverted, outputsThroughOn, startValuesAcrossRestart } from './io-scenarios.js';
import { busyLineNamesItsConsumer, debounceFiltersSpikes, deprecatedGlobalNumber, openDrainAndSource } from './line-scenarios.js';
import { gesturesCountedAndBound } from './press-scenarios.js';
import type { GpioServiceRig } from './rig.js';

export type { GpioServiceRig, RigChip } from './rig.js';

export interface GpioScenario {
  readonly name: string;
  run(t: TestContext, rig: GpioServiceRig): Promise<void>;
}

export const gpioScenarios: Readonly<
  Record<'io' | 'dropIn' | 'reload' | 'lines' | 'counters' | 'faults' | 'presses', readonly GpioScenario[]>
> = {
  io: [
    { name: 'inputs publish their level, inverted inputs the opposite', run: inputsAndInverted },
    { name: 'outputs follow /on 0 and 1; anything else is rejected', run: outputsThroughOn },
    { name: 'output start values across a restart, with and without load_previous_state', run: startValuesAcrossRestart },
  ],
  dropIn: [
    {
      name: 'a board file as real controllers ship it: outputs without direction are writable, inputs follow',
      run: boardFileOfARealController,
    },
    { name: "an older controller's single config: reserved names on their own integer gpio", run: singleConfigOfAnOlderController },
    {
      name: "board channels named outside the reserved list keep the user's settings through -j | -J and run",
      run: boardNamesOutsideTheReservedList,
    },
  ],
  reload: [
    {
      name: 'SIGHUP during a pulse train: unchanged channels untouched, changed ones re-created with their state, removed ones cleared',
      run: reloadInPlace,
    },
  ],
  lines: [
    { name: 'open drain and open source outputs drive their line', run: openDrainAndSource },
    { name: "an input's debounce drops spikes and publishes a held level once", run: debounceFiltersSpikes },
    { name: 'a line held by another process: r, its consumer named, picked up once free', run: busyLineNamesItsConsumer },
    { name: 'deprecated integer gpio mapped through /sys/class/gpio', run: deprecatedGlobalNumber },
  ],
  counters: [
    { name: 'paced pulses (1,000 on gpio-sim) give an exact total, saved on stop', run: pacedPulsesExact },
    { name: 'a chattering contact counts nothing; the level it then holds counts once', run: chatterNeverCounts },
    { name: '_total/on sets the reading, on disk at once', run: totalOnPersisted },
    { name: 'SIGTERM during a pulse train: the total after restart is exactly what was counted', run: sigtermDuringPulseTrain },
    {
      name: 'kill -9: the total after restart is never above the truth and loses at most one save window',
      run: kill9LosesAtMostOneSaveWindow,
    },
    { name: 'edge unset, SIGTERM while a pulse is high: the restart keeps the edge and the total stays exact', run: sigtermInHighPhase },
    {
      name: 'edge unset, kill -9 while a pulse is high: the restart keeps the edge, the total is never above the truth',
      run: kill9InHighPhase,
    },
  ],
  presses: [
    {
      name: 'single, double, long and short-long presses with real timings: each counted once, kept across a restart, bound to an output',
      run: gesturesCountedAndBound,
    },
  ],
  faults: [
    { name: 'a corrupt state file is set aside and the service starts', run: corruptStateFile },
    { name: 'a chip taken away gives r on its controls and works again when it is back', run: chipRemovedAndRestored },
    { name: 'a chip missing at start is picked up when it appears', run: chipMissingAtStart },
  ],
};
