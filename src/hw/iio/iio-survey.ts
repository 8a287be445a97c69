/**
 * Every IIO device under the bus directory and what each of its voltage channels reads now, for
 * listing the hardware (`ctl-mqtt-adc --list-channels`). It reads as the ADC service reads: the
 * device entries in the order `match_iio` tries them (iio-scan.ts), the raw value through the
 * service's reader (iio-raw.ts), and the scale in use (iio-scale.ts). Nothing is written: the
 * scale is the one the channel has, whatever a running service chose.
 */
import { join } from 'node:path';
import { errnoOf, messageOf } from '../../core/errors.js';
import { IioRawReader } from './iio-raw.js';
import { readScaleInUse } from './iio-scale.js';
import { iioDevicesDir, iioEntries, linkTarget } from './iio-scan.js';
import { namesIn, textOf } from './sysfs-calls.js';
import type { Time } from '../../core/time.js';

export interface SurveyedChannel {
  /** `voltage1`, `voltage0-voltage1` (what `channel_number` names). */
  channel: string;
  /** The raw reading; null when it cannot be read. */
  raw: number | null;
  /** The scale in use, mV per LSB; null when there is none or it cannot be read. */
  scale: number | null;
  /** Why raw or scale is missing. */
  error?: string;
}

export interface SurveyedDevice {
  /** `iio:deviceN`. */
  entry: string;
  /** The bus entry's symlink target (what `match_iio` is matched against); '' for an entry that is no link. */
  target: string;
  /** The device's `name` attribute; '' when it has none. */
  name: string;
  channels: SurveyedChannel[];
  /** Why the device's channels cannot be listed. */
  error?: string;
}

/** `in_voltage3_raw` → `voltage3`; a differential pair `in_voltage0-voltage1_raw` → `voltage0-voltage1`. */
const VOLTAGE_RAW = /^in_(voltage(\d+)(?:-voltage(\d+))?)_raw$/;

/** The voltage channels of a device directory's attribute names, in channel number order. */
export function voltageChannelsOf(names: readonly string[]): string[] {
  return names
    .map((name) => VOLTAGE_RAW.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[2]) - Number(b[2]) || Number(a[3] ?? -1) - Number(b[3] ?? -1))
    .map((m) => m[1]!);
}

/**
 * The devices under `<sysfsRoot>/sys/bus/iio/devices`. Rejects with HW_GONE (no IIO bus) or
 * HW_IO when that directory cannot be read; a device or channel that cannot be read is listed
 * with its error and the others still are.
 */
export async function surveyIioDevices(sysfsRoot: string, time: Pick<Time, 'now'>): Promise<SurveyedDevice[]> {
  const devices = iioDevicesDir(sysfsRoot);
  const surveyed: SurveyedDevice[] = [];
  for (const entry of await iioEntries(devices)) surveyed.push(await surveyDevice(join(devices, entry), entry, time));
  return surveyed;
}

async function surveyDevice(dir: string, entry: string, time: Pick<Time, 'now'>): Promise<SurveyedDevice> {
  const target = (await linkTarget(dir)) ?? '';
  const name = await nameOf(dir);
  let names: string[];
  try {
    names = await namesIn(dir);
  } catch (err) {
    return { entry, target, name, channels: [], error: `cannot list ${dir}: ${errnoOf(err) ?? messageOf(err)}` };
  }
  const channels: SurveyedChannel[] = [];
  // One at a time: a conversion on a slow bus ADC is not hurried by asking for all channels at once.
  for (const channel of voltageChannelsOf(names)) channels.push(await surveyChannel(dir, channel, time));
  return { entry, target, name, channels };
}

async function surveyChannel(dir: string, channel: string, time: Pick<Time, 'now'>): Promise<SurveyedChannel> {
  const problems: string[] = [];
  const reader = new IioRawReader(join(dir, `in_${channel}_raw`), { time });
  let raw: number | null = null;
  try {
    raw = await reader.read();
  } catch (err) {
    problems.push(messageOf(err));
  } finally {
    await reader.close();
  }
  let scale: number | null = null;
  try {
    scale = (await readScaleInUse(dir, channel)).value;
  } catch (err) {
    problems.push(messageOf(err));
  }
  return problems.length > 0 ? { channel, raw, scale, error: problems.join('; ') } : { channel, raw, scale };
}

/** The `name` attribute, '' when there is none (or it cannot be read: the name only labels the device). */
async function nameOf(dir: string): Promise<string> {
  try {
    return (await textOf(join(dir, 'name'))).trim();
  } catch {
    return '';
  }
}
