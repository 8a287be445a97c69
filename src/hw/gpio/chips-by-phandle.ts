/**
 * GPIO chips by the phandle of their device-tree node: how a board's device tree names a chip
 * (`io-gpios = <&gpio4 13 1>`) becomes the chip's character device `/dev/gpiochipN`.
 */
import { join } from 'node:path';
import { busEntriesByPhandle } from '../devicetree/bus-phandles.js';

/** `/dev/gpiochipN` by phandle, from `<root>/sys/bus/gpio/devices/gpiochipN/of_node/phandle`. */
export async function gpioChipsByPhandle(sysfsRoot: string): Promise<Map<number, string>> {
  const entries = await busEntriesByPhandle(join(sysfsRoot, 'sys', 'bus', 'gpio', 'devices'), /^gpiochip(\d+)$/);
  return new Map([...entries].map(([phandle, name]) => [phandle, `/dev/${name}`]));
}
