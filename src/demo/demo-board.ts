/**
 * The simulated controller the demo runs the services on, derived from the configs they will
 * read (example config + board files), so every channel has hardware behind it:
 * - sim GPIO chips (`--gpio-sim`) with every line a GPIO channel uses, rounded up to banks of 32;
 * - a fake IIO sysfs tree (`--sysfs-root`) with one ADC per `match_iio`, whose symlink target
 *   contains the pattern (`2198000.adc` → `.../devices/platform/soc/2198000.adc/iio:device0`),
 *   every channel an ADC channel reads, and a 12-bit / 3.3 V scale.
 */
import { join } from 'node:path';
import type { AdcChannelConfig, AdcConfig } from '../adc/config/adc-config-model.js';
import type { GpioChannelConfig, GpioConfig } from '../gpio/config/gpio-config-model.js';
import { CtlError } from '../core/errors.js';
import { createSimBoard, type SimChipSpec } from '../sim/gpio/sim-board.js';
import { chipNameOf, lineDirOf } from '../sim/gpio/sim-files.js';
import { createFakeIioTree, type FakeIioTree } from '../sim/iio/fake-tree.js';
import { targetMatches } from '../hw/iio/iio-match.js';

/** mV per LSB of the simulated ADC: 12 bits over 3.3 V. */
export const ADC_SCALE_MV = 3300 / 4096;
export const ADC_MAX_RAW = 4095;
/** Full scale of the simulated ADC input, volts. */
export const ADC_FULL_SCALE_V = 3.3;

export interface SimulatedLine {
  readonly channel: GpioChannelConfig;
  /** `<sim dir>/<chip>/sim_gpio<N>`: write `pull` to drive an input, read `value` of an output. */
  readonly lineDir: string;
}

export interface SimulatedAdcChannel {
  readonly channel: AdcChannelConfig;
  /** Index N of the fake `iio:deviceN` the channel reads. */
  readonly deviceIndex: number;
}

export interface DemoBoard {
  /** Give to ctl-mqtt-gpio as `--gpio-sim`. */
  readonly gpioSimDir: string;
  /** Give to ctl-mqtt-adc as `--sysfs-root`. */
  readonly sysfsRoot: string;
  readonly inputs: readonly SimulatedLine[];
  readonly outputs: readonly SimulatedLine[];
  readonly iio: FakeIioTree;
  readonly analog: readonly SimulatedAdcChannel[];
}

const BANK = 32;

function chipLayout(channels: readonly GpioChannelConfig[]): Record<string, SimChipSpec> {
  const names = new Map<string, string[]>();
  for (const ch of channels) {
    if (!('chip' in ch.line)) {
      throw new CtlError('RUNTIME', `demo: channel ${ch.name} uses a global GPIO number, which the simulated board cannot map`);
    }
    const chip = chipNameOf(ch.line.chip);
    const lineNames = names.get(chip) ?? [];
    lineNames[ch.line.offset] = ch.name;
    names.set(chip, lineNames);
  }
  const layout: Record<string, SimChipSpec> = {};
  for (const [chip, lineNames] of names) {
    const lines = Math.max(BANK, Math.ceil(lineNames.length / BANK) * BANK);
    layout[chip] = { lines, label: `demo-${chip}`, lineNames: Array.from({ length: lines }, (_, i) => lineNames[i] ?? '') };
  }
  return layout;
}

/** A directory name under sys/devices whose path `pattern` matches as the service matches it. */
function parentFor(pattern: string, index: number): string {
  const literal = pattern.replace(/[*?[\]\\]/g, '');
  const parent = literal === '' ? `platform/demo-adc${index}` : `platform/soc/${literal.replace(/^\/+|\/+$/g, '')}`;
  if (pattern !== '' && !targetMatches(pattern, `../../../devices/${parent}/iio:device${index}`)) {
    throw new CtlError('RUNTIME', `demo: cannot simulate an IIO device matching match_iio "${pattern}"`);
  }
  return parent;
}

function buildIio(root: string, channels: readonly AdcChannelConfig[]): { iio: FakeIioTree; analog: SimulatedAdcChannel[] } {
  const iio = createFakeIioTree(root);
  // '' (iio:device0) first, so it gets index 0.
  const patterns = [...new Set(channels.map((c) => c.matchIio))].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : 0));
  const indexOf = new Map<string, number>();
  patterns.forEach((pattern, index) => {
    const own = channels.filter((c) => c.matchIio === pattern);
    iio.addDevice({
      index,
      parent: parentFor(pattern, index),
      name: `demo-adc${index}`,
      channels: Object.fromEntries(own.map((c) => [c.channel, { raw: 0 }])),
      files: { in_voltage_scale: ADC_SCALE_MV.toFixed(9) },
    });
    indexOf.set(pattern, index);
  });
  return { iio, analog: channels.map((channel) => ({ channel, deviceIndex: indexOf.get(channel.matchIio)! })) };
}

/** Creates the board's files under `dir` (`gpio/` and `iio/`). */
export function createDemoBoard(dir: string, gpio: GpioConfig, adc: AdcConfig): DemoBoard {
  const gpioSimDir = join(dir, 'gpio');
  const sysfsRoot = join(dir, 'iio');
  const chipDirs = createSimBoard(gpioSimDir, chipLayout(gpio.channels));
  const lineOf = (channel: GpioChannelConfig): SimulatedLine => {
    const line = channel.line as { chip: string; offset: number };
    return { channel, lineDir: lineDirOf(chipDirs[chipNameOf(line.chip)]!, line.offset) };
  };
  const { iio, analog } = buildIio(sysfsRoot, adc.channels);
  return {
    gpioSimDir,
    sysfsRoot,
    inputs: gpio.channels.filter((c) => c.direction === 'input').map(lineOf),
    outputs: gpio.channels.filter((c) => c.direction === 'output').map(lineOf),
    iio,
    analog,
  };
}
