/**
 * The scenario rig on the kernel's gpio-sim inside the HIL guest (`npm run test:hil`): chips
 * `pinctrl-bcm2711` (chip 0) and `gpio-expander` (chip 1) made by scripts/hil/guest-init.sh, the
 * service started with `--gpio-backend cdev`, a mosquitto in the guest (aedes when it is not
 * installed). Lines are driven and read through
 * /sys/devices/platform/gpio-sim.N/gpiochipM/sim_gpioK/{pull,value}; a chip taken away
 * (`live` 0) comes back under a new number on Linux 6.1, which the rig follows by label (and the
 * service by label and size).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { createCdevBackend } from '../../../src/hw/gpio/cdev/cdev-backend.js';
import { readLegacyChipRanges } from '../../../src/hw/gpio/legacy-number.js';
import { startTestBroker } from '../../helpers/test-broker.js';
import { level, pull, puller, resetPulls, setLive, simChip, waitForNode } from '../../hil/gpio-sim-rig.js';
import { holdLine } from '../../hil/line-holder.js';
import type { GpioServiceRig } from './rig.js';
import { hilTimeScale } from '../../hil/time-scale.js';
import { systemTime } from '../../../src/core/time.js';

const LABELS = ['pinctrl-bcm2711', 'gpio-expander'] as const;

export async function kernelRig(t: TestContext): Promise<GpioServiceRig> {
  const tmpDir = mkdtempSync(join(tmpdir(), 'ctl-gpio-hil-'));
  const broker = await startTestBroker();
  const current = (chip: number) => simChip(LABELS[chip]!);
  for (const label of LABELS) await resetPulls(simChip(label));
  t.after(async () => {
    await broker.close();
    for (const label of LABELS) {
      const sim = simChip(label);
      await setLive(sim, true)
        .then((back) => waitForNode(back.path))
        .catch(() => undefined);
      await resetPulls(simChip(label)).catch(() => undefined);
    }
    rmSync(tmpDir, { recursive: true, force: true });
  });
  return {
    name: 'cdev',
    timeScale: hilTimeScale(),
    command: fileURLToPath(new URL('../../../bin/ctl-mqtt-gpio.js', import.meta.url)),
    brokerUrl: broker.url,
    tmpDir,
    chips: LABELS.map((label) => {
      const sim = simChip(label);
      return { path: sim.path, lines: sim.lines };
    }),
    serviceArgs: () => ['--gpio-backend', 'cdev'],
    setInput: (chip, offset, high) => pull(current(chip), offset, high),
    level: (chip, offset) => level(current(chip), offset),
    removeChip: async (chip) => {
      await setLive(current(chip), false);
    },
    restoreChip: async (chip) => {
      const back = await setLive(current(chip), true);
      await waitForNode(back.path);
      await resetPulls(simChip(LABELS[chip]!));
    },
    reset: async () => {
      for (const label of LABELS) await resetPulls(simChip(label));
    },
    spike: async (chip, offset) => {
      const line = puller(current(chip), offset);
      line.set(true);
      line.set(false);
      line.close();
    },
    edgeHoldMs: 20,
    pacedPulses: 1000,
    globalNumber: async (chip, offset) => {
      const range = (await readLegacyChipRanges())?.find((r) => r.chip === current(chip).path);
      return range === undefined ? undefined : range.base + offset;
    },
    holdLine: (t, chip, offset, consumer) => holdLine(t, current(chip).path, offset, consumer),
    lineInfo: async (chip, offset) => {
      const backend = createCdevBackend({ time: systemTime });
      try {
        const info = await (await backend.openChip(current(chip).path)).lineInfo(offset);
        return { name: info.name, consumer: info.consumer };
      } finally {
        await backend.close();
      }
    },
  };
}
