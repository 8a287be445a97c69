/**
 * The GPIO chips a backend can open, as `/dev/gpiochipN` paths: the `gpiochipN` entries of a
 * directory (`/dev` for the character devices, the sim directory for simulated chips, whose
 * directories carry the same names). In chip number order, so gpiochip2 comes before gpiochip10.
 */
import { readdir } from 'node:fs/promises';

const CHIP_NODE = /^gpiochip(\d+)$/;

/** `/dev/gpiochipN` paths of the chip entries in `dir`. Rejects with the file-system error when `dir` cannot be read. */
export async function chipPathsIn(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .map((name) => ({ name, n: CHIP_NODE.exec(name)?.[1] }))
    .filter((e): e is { name: string; n: string } => e.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n))
    .map((e) => `/dev/${e.name}`);
}
