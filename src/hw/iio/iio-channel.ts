/**
 * One IIO ADC channel, ready to sample: its raw file and its scale. This is what the ADC
 * service holds; it never builds sysfs paths itself.
 *
 *   const device = await findIioDevice({ sysfsRoot, matchIio });
 *   const channel = await openIioChannel(device.dir, 'voltage1', { desiredScale: cfg.scale, time });
 *   const mV = (await channel.readRaw()) * channel.scale.value;
 */
import { join } from 'node:path';
import { iioError } from './iio-errors.js';
import { IioRawReader, type IioRawReaderOptions } from './iio-raw.js';
import { type IioScale, resolveScale } from './iio-scale.js';
import { statOf } from './sysfs-calls.js';

export interface OpenIioChannelOptions extends IioRawReaderOptions {
  /** The config's `scale`: <= 0 (default) the largest available, else the closest. */
  desiredScale?: number;
}

export interface IioChannel {
  /** `voltage1`. */
  readonly name: string;
  readonly deviceDir: string;
  /** `<device>/in_<name>_raw`. */
  readonly rawPath: string;
  /** The scale in use (mV per LSB) and where it came from. */
  readonly scale: IioScale;
  /** One raw reading (see IioRawReader.read). */
  readRaw(): Promise<number>;
  /** One raw reading on the calling thread (see IioRawReader.readSync): only for fast reads. */
  readRawSync(): number;
  /** Closes the raw file. */
  close(): Promise<void>;
}

/**
 * Checks that the channel exists and sets its scale. Rejects with HW_GONE (no device, no such
 * channel), HW_IO (the scale cannot be set or read) or HW_UNSUPPORTED (no scale at all).
 */
export async function openIioChannel(deviceDir: string, channel: string, options: OpenIioChannelOptions): Promise<IioChannel> {
  const rawPath = join(deviceDir, `in_${channel}_raw`);
  try {
    await statOf(rawPath);
  } catch (err) {
    throw iioError(`IIO channel ${channel} not found (${rawPath})`, err);
  }
  const scale = await resolveScale(deviceDir, channel, options.desiredScale ?? 0);
  const reader = new IioRawReader(rawPath, options);
  return {
    name: channel,
    deviceDir,
    rawPath,
    scale,
    readRaw: () => reader.read(),
    readRawSync: () => reader.readSync(),
    close: () => reader.close(),
  };
}
