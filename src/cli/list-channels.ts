/**
 * `ctl-mqtt-adc --list-channels`: the IIO devices under `--sysfs-root` and what each voltage
 * channel reads now, with the volts the service would publish for it with `voltage_multiplier` 1
 * and the default 3 decimals. The binary imports this module only for this mode (no MQTT).
 */
import { channelValue, inputMillivolts } from '../adc/conversion.js';
import type { AdcCliOptions } from './cli-options.js';
import { messageOf } from '../core/errors.js';
import { formatFixed } from '../mqtt/number-format.js';
import { iioDevicesDir } from '../hw/iio/iio-scan.js';
import { surveyIioDevices, type SurveyedChannel, type SurveyedDevice } from '../hw/iio/iio-survey.js';
import type { CliIo } from './cli-io.js';
import { printListing, table, type Listing } from './listing-output.js';
import { systemTime } from '../core/time.js';

/** Decimals of `volts`: the service's default `decimal_places`. */
const VOLTS_DECIMALS = 3;

/** One channel as `--list-channels` prints it (field names are part of the interface: docs/command-line.md). */
export interface ChannelEntry {
  channel: string;
  raw: number | null;
  scale: number | null;
  volts: number | null;
  error?: string;
}

export interface DeviceEntry {
  device: string;
  target: string;
  name: string;
  channels: ChannelEntry[];
  error?: string;
}

export interface ChannelsDocument {
  devices: DeviceEntry[];
}

/** raw × scale / 1000, as the service converts a reading, rounded as it publishes by default. */
function voltsOf(raw: number, scale: number): number | null {
  const volts = channelValue(inputMillivolts(raw, scale), 1);
  return Number.isFinite(volts) ? Number(formatFixed(volts, VOLTS_DECIMALS)) : null;
}

function channelEntry(c: SurveyedChannel): ChannelEntry {
  const volts = c.raw !== null && c.scale !== null ? voltsOf(c.raw, c.scale) : null;
  const entry: ChannelEntry = { channel: c.channel, raw: c.raw, scale: c.scale, volts };
  return c.error !== undefined ? { ...entry, error: c.error } : entry;
}

function deviceEntry(d: SurveyedDevice): DeviceEntry {
  const entry: DeviceEntry = { device: d.entry, target: d.target, name: d.name, channels: d.channels.map(channelEntry) };
  return d.error !== undefined ? { ...entry, error: d.error } : entry;
}

/** Every IIO device under `sysfsRoot`, with its voltage channels read now. */
export async function channelsDocument(sysfsRoot: string): Promise<Listing<ChannelsDocument>> {
  let devices: DeviceEntry[];
  try {
    devices = (await surveyIioDevices(sysfsRoot, systemTime)).map(deviceEntry);
  } catch (err) {
    return { document: { devices: [] }, nothingListed: messageOf(err) };
  }
  const channels = devices.flatMap((d) => d.channels);
  let nothingListed: string | undefined;
  if (devices.length === 0) nothingListed = `no IIO devices in ${iioDevicesDir(sysfsRoot)}`;
  else if (channels.length === 0) nothingListed = `the ${devices.length} IIO device(s) have no voltage channel that could be listed`;
  else if (channels.every((c) => c.raw === null)) nothingListed = `none of the ${channels.length} voltage channel(s) could be read`;
  return { document: { devices }, nothingListed };
}

function numberText(value: number | null): string {
  return value === null ? '' : String(value);
}

/** The document as a table per device. */
export function humanChannels(doc: ChannelsDocument): string {
  const out: string[] = [];
  for (const device of doc.devices) {
    if (out.length > 0) out.push('');
    out.push(`${device.device}  ${device.name ? `"${device.name}"` : '(no name)'}  -> ${device.target || '(not a link)'}`);
    if (device.error !== undefined) {
      out.push(`  error: ${device.error}`);
      continue;
    }
    if (device.channels.length === 0) {
      out.push('  no voltage channels');
      continue;
    }
    const rows = [['channel', 'raw', 'scale', 'volts', '']];
    for (const c of device.channels) {
      rows.push([c.channel, numberText(c.raw), numberText(c.scale), numberText(c.volts), c.error !== undefined ? `error: ${c.error}` : '']);
    }
    out.push(...table(rows));
  }
  return out.length > 0 ? out.join('\n') + '\n' : '';
}

/** Runs `--list-channels`; resolves to the exit code. */
export async function listChannels(cli: AdcCliOptions, io: CliIo): Promise<number> {
  return printListing(await channelsDocument(cli.sysfsRoot), humanChannels, cli.listFormat, cli.binary, io);
}
