/**
 * Fake device trees for the `--generate-board` tests, written the way the kernel shows a live
 * tree under /sys/firmware/devicetree/base: a node is a directory, a property a file of
 * big-endian 32-bit cells, NUL-terminated strings or no bytes at all (a flag). Bus entries of the
 * devices made from nodes carry `of_node/phandle`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A property of 32-bit cells, big-endian. */
export function cells(...values: number[]): Buffer {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => bytes.writeUInt32BE(v, i * 4));
  return bytes;
}

/** A string property, NUL-terminated. */
export function str(text: string): Buffer {
  return Buffer.from(text + '\0', 'utf8');
}

/** A flag property (present, no value). */
export const FLAG = Buffer.alloc(0);

export type DtProperties = Readonly<Record<string, Buffer>>;

/** `<root>/sys/firmware/devicetree/base/<node>` with these properties. */
export function writeDtNode(root: string, node: string, properties: DtProperties): string {
  const dir = join(root, 'sys/firmware/devicetree/base', node);
  mkdirSync(dir, { recursive: true });
  for (const [name, value] of Object.entries(properties)) writeFileSync(join(dir, name), value);
  return dir;
}

/** Nodes under one parent (`wirenboard/gpios`), by name. */
export function writeDtChildren(root: string, parent: string, children: Readonly<Record<string, DtProperties>>): void {
  mkdirSync(join(root, 'sys/firmware/devicetree/base', parent), { recursive: true });
  for (const [name, properties] of Object.entries(children)) writeDtNode(root, `${parent}/${name}`, properties);
}

/** `<root>/sys/bus/gpio/devices/gpiochipN/of_node/phandle`. */
export function addGpioChip(root: string, n: number, phandle: number): void {
  const ofNode = join(root, `sys/bus/gpio/devices/gpiochip${n}/of_node`);
  mkdirSync(ofNode, { recursive: true });
  writeFileSync(join(ofNode, 'phandle'), cells(phandle));
}

/** The device-tree node of an IIO device directory (`of_node/phandle`). */
export function setOfPhandle(deviceDir: string, phandle: number): void {
  mkdirSync(join(deviceDir, 'of_node'), { recursive: true });
  writeFileSync(join(deviceDir, 'of_node', 'phandle'), cells(phandle));
}
