/**
 * Finding a channel's hardware: the IIO device whose bus entry matches `match_iio`
 * (or `iio:device0`), its `in_<channel>_raw`, and its scale (chosen from the available list and
 * written, or read). Not finding it is an ordinary state: the sampler sets `r` and looks again
 * after `rescanDelayMs`, so a module plugged in later starts working without a restart.
 */
import { basename } from 'node:path';
import { openIioChannel, type IioChannel } from '../hw/iio/iio-channel.js';
import type { IioRawReaderOptions } from '../hw/iio/iio-raw.js';
import { findIioDevice, type IioDeviceRef } from '../hw/iio/iio-scan.js';
import type { AdcChannelConfig } from './config/adc-config-model.js';

export interface ResolvedChannel {
  readonly device: IioDeviceRef;
  readonly channel: IioChannel;
}

/**
 * Looks the channel up under `sysfsRoot`. Rejects with the hw layer's one-line CtlError.
 * `reader` tunes the raw reader and gives it its clock.
 */
export async function resolveAdcChannel(
  config: AdcChannelConfig,
  sysfsRoot: string,
  reader: IioRawReaderOptions,
): Promise<ResolvedChannel> {
  const device = await findIioDevice({ sysfsRoot, matchIio: config.matchIio });
  const channel = await openIioChannel(device.dir, config.channel, { ...reader, desiredScale: config.scale });
  return { device, channel };
}

/** Waits between look-ups of a missing channel: 1 s, 2 s, 4 s, then every 5 s. */
export const RESCAN_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 5000];

/** The wait before look-up number `failures` + 1 (`failures` >= 1 look-ups failed in a row). */
export function rescanDelayMs(failures: number): number {
  const i = Math.min(Math.max(failures, 1), RESCAN_DELAYS_MS.length) - 1;
  return RESCAN_DELAYS_MS[i]!;
}

/**
 * One line saying what was found, for the log:
 * `iio:device0 in_voltage1_raw, scale 0.805664062 mV set from in_voltage1_scale_available (match_iio "2198000.adc": ../../../devices/...)`.
 */
export function describeResolved(r: ResolvedChannel, matchIio: string): string {
  const { scale } = r.channel;
  const how = scale.chosen
    ? `set to ${scale.chosen.token} from ${basename(scale.chosen.from)}, ${basename(scale.source)} reads ${scale.value}`
    : `${scale.value} from ${basename(scale.source)}`;
  const where = matchIio === '' ? '' : ` (match_iio "${matchIio}": ${r.device.target})`;
  return `${r.device.entry} ${basename(r.channel.rawPath)}, scale (mV per LSB) ${how}${where}`;
}
