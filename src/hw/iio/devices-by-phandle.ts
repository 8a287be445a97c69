/**
 * IIO devices by the phandle of their device-tree node: how a board's device tree names an ADC
 * (`iio-device = <&adc>`) becomes a `match_iio` pattern, the target of the device's bus symlink
 * (`../../../devices/platform/.../2198000.adc/iio:device0`), which the service matches against
 * that same target.
 */
import { readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { busEntriesByPhandle } from '../devicetree/bus-phandles.js';
import { iioDevicesDir } from './iio-scan.js';

/** The bus symlink target of each IIO device made from a device-tree node, by phandle. */
export async function iioLinksByPhandle(sysfsRoot: string): Promise<Map<number, string>> {
  const devices = iioDevicesDir(sysfsRoot);
  const entries = await busEntriesByPhandle(devices, /^iio:device(\d+)$/);
  const links = new Map<number, string>();
  for (const [phandle, name] of entries) {
    try {
      links.set(phandle, await readlink(join(devices, name)));
    } catch {
      // Not a symlink: nothing to match against, as when the service looks devices up.
    }
  }
  return links;
}
