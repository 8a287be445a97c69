/**
 * Which device of a bus a device-tree phandle names. Every device the kernel made from a
 * device-tree node has `of_node/` in its bus entry (`/sys/bus/<bus>/devices/<entry>/of_node`),
 * and that node's `phandle` property is the number other nodes refer to it by.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readPropertyFile } from './property-file.js';

/**
 * The entries of a bus directory whose names match `entry` (with the number in group 1), by the
 * phandle of their device-tree node. Entries without a node or with an unreadable phandle are
 * left out; a missing bus directory gives none. When two entries share a node (a driver that
 * registers several chips for one node), the lowest-numbered one is taken.
 */
export async function busEntriesByPhandle(busDir: string, entry: RegExp): Promise<Map<number, string>> {
  let names: string[];
  try {
    names = await readdir(busDir);
  } catch {
    return new Map();
  }
  const numbered = names
    .map((name) => ({ name, n: entry.exec(name)?.[1] }))
    .filter((e): e is { name: string; n: string } => e.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  const byPhandle = new Map<number, string>();
  for (const { name } of numbered) {
    const phandle = await readPhandle(join(busDir, name, 'of_node', 'phandle'));
    if (phandle !== undefined && !byPhandle.has(phandle)) byPhandle.set(phandle, name);
  }
  return byPhandle;
}

async function readPhandle(path: string): Promise<number | undefined> {
  try {
    const bytes = await readPropertyFile(path);
    return bytes?.length === 4 ? bytes.readUInt32BE(0) : undefined;
  } catch {
    return undefined; // not a phandle a device can have: the entry is left out, as above
  }
}
