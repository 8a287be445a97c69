/**
 * The hardware side of a save's check: the controller's GPIO lines (`ctl-mqtt-gpio --list-lines`)
 * or IIO channels (`ctl-mqtt-adc --list-channels`), listed by the service's own binary with the
 * service's backend options, and the channels of an edited config checked against them. A line
 * past a chip's end, a chip or an IIO channel that is not there, a line another program holds:
 * each is one problem line `channels[3].gpio.offset: ...`, in the form of `-J`'s own, so the page
 * puts it beside its field. An ADC channel's device is found by the service's own `match_iio`
 * rule (hw/iio/iio-match.ts) on the listed devices. A binary without the listing (exit 2, an
 * unknown option) means "no list": the save is then checked by `-J` alone, and the service
 * reports what it cannot open.
 */
import { messageOf } from '../../core/errors.js';
import { pickIioDevice } from '../../hw/iio/iio-match.js';
import { consoleRule } from './console-rules.js';
import { runCommand } from './run-command.js';
import { serviceOptions } from './unit-options.js';
import { answer } from '../http/answers.js';
import type { GpioChipInfo, HardwareAnswer, HardwareList, IioDeviceInfo } from '../common/config-page-model.js';

/** The consumer name the GPIO service requests its lines under: its own lines are not "held". */
export const OWN_CONSUMER = 'ctl-mqtt-gpio';

/**
 * Runs the listing command, with the words of CTL_MQTT_OPTS in `optionsFile` after it when given
 * (the options the service's unit starts it with); never throws.
 */
export async function listHardware(argv: readonly string[] | undefined, optionsFile?: string): Promise<HardwareAnswer> {
  if (argv === undefined || argv.length === 0) return { available: false, why: answer('hardware.no-listing') };
  let options: string[] = [];
  try {
    if (optionsFile !== undefined) options = await serviceOptions(optionsFile);
  } catch (err) {
    return { available: false, why: messageOf(err) };
  }
  const result = await runCommand([...argv, ...options], '', 15_000);
  if (result.code === 2) return { available: false, why: answer('hardware.old-service') };
  if (result.code !== 0)
    return { available: false, why: result.failure ?? (result.stderr.trim().split('\n')[0] || `exit code ${String(result.code)}`) };
  try {
    const list = JSON.parse(result.stdout) as unknown;
    if (
      list !== null &&
      typeof list === 'object' &&
      (Array.isArray((list as { chips?: unknown }).chips) || Array.isArray((list as { devices?: unknown }).devices))
    ) {
      return { available: true, list: list as HardwareList };
    }
  } catch {
    // falls through to the answer below
  }
  return { available: false, why: answer('hardware.unreadable-list', { command: argv[0] }) };
}

type Item = Record<string, unknown>;

const itemsOf = (config: unknown, key: string): Item[] => {
  const list = (config as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) ? (list as Item[]) : [];
};

function chipOf(chips: readonly GpioChipInfo[], wanted: string): GpioChipInfo | undefined {
  return chips.find((c) => c.path === wanted || `/dev/${c.name}` === wanted || c.name === wanted);
}

/** Problems of the custom GPIO channels (chip and offset) against the listed chips. */
export function gpioProblems(config: unknown, chips: readonly GpioChipInfo[]): string[] {
  const problems: string[] = [];
  itemsOf(config, 'channels').forEach((channel, i) => {
    const gpio = channel?.['gpio'] as Item | undefined;
    if (gpio === null || typeof gpio !== 'object' || typeof gpio['chip'] !== 'string' || typeof gpio['offset'] !== 'number') return;
    const at = `channels[${i}].gpio`;
    const chip = chipOf(chips, gpio['chip']);
    if (chip === undefined) {
      const known = chips.map((c) => c.path).join(', ');
      const named = gpio['chip'];
      const missing =
        known === '' ? consoleRule('hardware.no-chip-at-all', { chip: named }) : consoleRule('hardware.no-chip', { chip: named, known });
      problems.push(`${at}.chip: ${missing}`);
      return;
    }
    const offset = gpio['offset'];
    if (chip.error !== undefined) return; // the chip cannot be read: nothing to say about its lines
    if (offset >= chip.lines) {
      problems.push(
        `${at}.offset: ${consoleRule('hardware.no-line', { chip: chip.path, lines: chip.lines, last: chip.lines - 1, offset })}`,
      );
      return;
    }
    const line = chip.line_info?.find((l) => l.offset === offset);
    if (line?.used === true && line.consumer !== OWN_CONSUMER) {
      const held =
        line.consumer === ''
          ? consoleRule('hardware.line-held-unnamed', { offset, chip: chip.path })
          : consoleRule('hardware.line-held', { offset, chip: chip.path, consumer: line.consumer });
      problems.push(`${at}.offset: ${held}`);
    }
  });
  return problems;
}

/**
 * Problems of the custom ADC channels against the listed IIO devices. The device of a channel is
 * the one the service would read: the same rule (hw/iio/iio-match.ts) on the listed entries and
 * their link targets, so a config the service runs is never refused here, and no device but that
 * one can make a channel look present.
 */
export function adcProblems(config: unknown, devices: readonly IioDeviceInfo[]): string[] {
  const entries = devices.map((info) => ({ entry: info.device, target: info.target, info }));
  const problems: string[] = [];
  itemsOf(config, 'iio_channels').forEach((channel, i) => {
    const number = channel?.['channel_number'];
    if (number === undefined) return;
    const wanted = typeof number === 'number' ? `voltage${number}` : String(number);
    const matchIio = typeof channel['match_iio'] === 'string' ? channel['match_iio'] : '';
    const device = pickIioDevice(matchIio, entries)?.info;
    if (device === undefined) {
      const missing =
        matchIio === '' ? consoleRule('hardware.no-iio-device0') : consoleRule('hardware.no-iio-device', { pattern: matchIio });
      problems.push(`iio_channels[${i}].match_iio: ${missing}`);
      return;
    }
    if (device.error !== undefined) return; // the device cannot be read: nothing to say about its channels
    const known = device.channels?.map((c) => c.channel) ?? [];
    if (known.includes(wanted)) return;
    const missing =
      known.length === 0
        ? consoleRule('hardware.no-iio-channel-listed', { channel: wanted, device: device.device })
        : consoleRule('hardware.no-iio-channel', { channel: wanted, device: device.device, known: known.join(', ') });
    problems.push(`iio_channels[${i}].channel_number: ${missing}`);
  });
  return problems;
}

/** The problems of `config` against `list`, whichever kind it is. */
export function hardwareProblems(config: unknown, list: HardwareList): string[] {
  return 'chips' in list ? gpioProblems(config, list.chips) : adcProblems(config, list.devices);
}
