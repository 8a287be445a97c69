/**
 * A fake IIO sysfs tree for tests and the demo, shaped like the real one so the ADC service runs
 * on it unchanged (`--sysfs-root <root>`):
 *
 *   <root>/sys/devices/<parent>/iio:deviceN/{name, in_<ch>_raw, in_<ch>_scale, ...}
 *   <root>/sys/bus/iio/devices/iio:deviceN -> ../../../devices/<parent>/iio:deviceN
 *
 * Raw values are rewritten in place with a fixed width (`setRaw`): a reader that keeps the file
 * open (IioRawReader) sees every new value, and never an empty file between a truncate and a
 * write. Replacing a raw file by rename is seen only when the reader next reopens it.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { iioDevicesDir } from '../../hw/iio/iio-scan.js';
import { rewriteInPlace } from '../rewrite-in-place.js';

export interface FakeIioChannel {
  /** The raw reading (default 0). */
  raw?: number;
  /** Content of `in_<ch>_scale` (no file when absent). */
  scale?: number | string;
  /** Content of `in_<ch>_scale_available` (no file when absent). */
  scaleAvailable?: string;
}

export interface FakeIioDeviceSpec {
  /** Where the device sits under `sys/devices`, e.g. `platform/soc/2100000.bus/2198000.adc`. */
  parent: string;
  /** N of `iio:deviceN`; default: one more than the highest so far (0 for the first). */
  index?: number;
  /** Content of the `name` file (none when absent). */
  name?: string;
  /** Channels by IIO name (`voltage1`). */
  channels?: Readonly<Record<string, FakeIioChannel>>;
  /** Other attribute files by name, e.g. `{ in_voltage_scale: '0.805664062' }`. */
  files?: Readonly<Record<string, string>>;
}

export interface FakeIioDevice {
  index: number;
  /** `iio:deviceN`. */
  entry: string;
  /** The real directory under `sys/devices`. */
  dir: string;
  /** The bus entry (symlink) `sys/bus/iio/devices/iio:deviceN`. */
  link: string;
  /** The symlink target, what `match_iio` is matched against. */
  target: string;
}

/** Width of a raw file's content: every value fits, so rewrites never change the size. */
const RAW_WIDTH = 24;

export class FakeIioTree {
  private readonly devices = new Map<number, FakeIioDevice>();

  constructor(readonly root: string) {
    mkdirSync(iioDevicesDir(root), { recursive: true });
  }

  /** Adds a device (plugs a module in). */
  addDevice(spec: FakeIioDeviceSpec): FakeIioDevice {
    const index = spec.index ?? Math.max(-1, ...this.devices.keys()) + 1;
    const entry = `iio:device${index}`;
    const target = `../../../devices/${spec.parent}/${entry}`;
    const dir = join(this.root, 'sys', 'devices', spec.parent, entry);
    const link = join(iioDevicesDir(this.root), entry);
    mkdirSync(dir, { recursive: true });
    symlinkSync(target, link);
    const device: FakeIioDevice = { index, entry, dir, link, target };
    this.devices.set(index, device);
    if (spec.name !== undefined) writeFileSync(join(dir, 'name'), spec.name + '\n');
    for (const [channel, c] of Object.entries(spec.channels ?? {})) {
      this.setRaw(index, channel, c.raw ?? 0);
      if (c.scale !== undefined) writeFileSync(join(dir, `in_${channel}_scale`), `${c.scale}\n`);
      if (c.scaleAvailable !== undefined) writeFileSync(join(dir, `in_${channel}_scale_available`), c.scaleAvailable + '\n');
    }
    for (const [name, content] of Object.entries(spec.files ?? {})) this.writeAttribute(index, name, content);
    return device;
  }

  /** The device with index N. */
  device(index: number): FakeIioDevice {
    const device = this.devices.get(index);
    if (!device) throw new RangeError(`fake IIO tree has no iio:device${index}`);
    return device;
  }

  /** Sets a channel's raw reading, in place. */
  setRaw(index: number, channel: string, raw: number): void {
    if (!Number.isSafeInteger(raw)) throw new RangeError(`raw reading must be an integer (got ${raw})`);
    const path = join(this.device(index).dir, `in_${channel}_raw`);
    const text = `${raw}`.padEnd(RAW_WIDTH - 1) + '\n';
    rewriteInPlace(path, text); // same size: a concurrent read sees the old or the new value
  }

  /** Writes any attribute file of a device (a newline is added). */
  writeAttribute(index: number, name: string, content: string): void {
    writeFileSync(join(this.device(index).dir, name), content + '\n');
  }

  /** Removes a device (unplugs the module): its bus entry and its directory. */
  removeDevice(index: number): void {
    const device = this.device(index);
    rmSync(device.link, { force: true });
    rmSync(device.dir, { recursive: true, force: true });
    this.devices.delete(index);
  }
}

/** A fake tree under `root` with the given devices. */
export function createFakeIioTree(root: string, devices: readonly FakeIioDeviceSpec[] = []): FakeIioTree {
  const tree = new FakeIioTree(root);
  for (const spec of devices) tree.addDevice(spec);
  return tree;
}
