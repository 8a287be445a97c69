/**
 * `ctl-mqtt-gpio --list-lines`: the GPIO chips the service could use and every line's info from
 * the kernel (or the simulated chips with `--gpio-sim`), found as the service finds chips. Nothing
 * is requested: a line in use is shown with its consumer and stays with it. The binary imports
 * this module only for this mode (no MQTT).
 */
import { basename } from 'node:path';
import type { GpioCliOptions } from './cli-options.js';
import { errnoOf, messageOf } from '../core/errors.js';
import type { GpioBackend } from '../hw/gpio/backend.js';
import { describeChip, isUnreadable, type ChipDescription } from '../hw/gpio/chip-description.js';
import { chipPathsIn } from '../hw/gpio/chip-paths.js';
import type { CliIo } from './cli-io.js';
import { printListing, table, type Listing } from './listing-output.js';
import { systemTime } from '../core/time.js';

/** One line as `--list-lines` prints it (field names are part of the interface: docs/command-line.md). */
export interface LineEntry {
  offset: number;
  name: string;
  consumer: string;
  direction: 'input' | 'output' | null;
  used: boolean | null;
  active_low: boolean | null;
  error?: string;
}

export interface ChipEntry {
  path: string;
  name: string;
  label: string;
  lines: number | null;
  line_info: LineEntry[];
  error?: string;
}

export interface LinesDocument {
  chips: ChipEntry[];
}

/** The backend and the chips directory, chosen as the service chooses them. */
async function hardwareOf(cli: GpioCliOptions): Promise<{ backend: GpioBackend; chipsDir: string }> {
  if (cli.gpioBackend === 'sim' && cli.gpioSimDir !== null) {
    const { SimBackend } = await import('../sim/gpio/sim-backend.js');
    return { backend: new SimBackend({ dir: cli.gpioSimDir, time: systemTime }), chipsDir: cli.gpioSimDir };
  }
  const { createCdevBackend } = await import('../hw/gpio/cdev/cdev-backend.js');
  return { backend: createCdevBackend({ watchDevices: false, time: systemTime }), chipsDir: '/dev' };
}

function chipEntry(d: ChipDescription): ChipEntry {
  return {
    path: d.path,
    name: d.name,
    label: d.label,
    lines: d.lineCount,
    line_info: d.lines.map((line) =>
      isUnreadable(line)
        ? { offset: line.offset, name: '', consumer: '', direction: null, used: null, active_low: null, error: line.error }
        : {
            offset: line.offset,
            name: line.name,
            consumer: line.consumer,
            direction: line.direction,
            used: line.used,
            active_low: line.activeLow,
          },
    ),
  };
}

function unreadableChip(path: string, err: unknown): ChipEntry {
  return { path, name: basename(path), label: '', lines: null, line_info: [], error: messageOf(err) };
}

/** Every chip in the directory, described; a chip that cannot be opened is listed with its error. */
export async function linesDocument(backend: GpioBackend, chipsDir: string): Promise<Listing<LinesDocument>> {
  let paths: string[];
  try {
    paths = await chipPathsIn(chipsDir);
  } catch (err) {
    return { document: { chips: [] }, nothingListed: `cannot list GPIO chips: cannot read ${chipsDir}: ${errnoOf(err) ?? messageOf(err)}` };
  }
  const chips: ChipEntry[] = [];
  for (const path of paths) {
    try {
      chips.push(chipEntry(await describeChip(backend, path)));
    } catch (err) {
      chips.push(unreadableChip(path, err));
    }
  }
  let nothingListed: string | undefined;
  if (chips.length === 0) nothingListed = `no GPIO chips in ${chipsDir}`;
  else if (chips.every((c) => c.error !== undefined))
    nothingListed = `none of the ${chips.length} GPIO chip(s) could be read: ${chips[0]!.error}`;
  return { document: { chips }, nothingListed };
}

function yesNo(value: boolean | null): string {
  return value === null ? '' : value ? 'yes' : 'no';
}

/** The document as a table per chip. */
export function humanLines(doc: LinesDocument): string {
  const out: string[] = [];
  for (const chip of doc.chips) {
    if (out.length > 0) out.push('');
    if (chip.error !== undefined) {
      out.push(`${chip.path}: ${chip.error}`);
      continue;
    }
    out.push(`${chip.path}  ${chip.name}  "${chip.label}"  ${chip.lines} line(s)`);
    const rows = [['offset', 'name', 'consumer', 'direction', 'used', 'active low']];
    for (const l of chip.line_info) {
      rows.push(
        l.error !== undefined
          ? [String(l.offset), `error: ${l.error}`]
          : [String(l.offset), l.name, l.consumer, l.direction ?? '', yesNo(l.used), yesNo(l.active_low)],
      );
    }
    out.push(...table(rows));
  }
  return out.length > 0 ? out.join('\n') + '\n' : '';
}

/** Runs `--list-lines`; resolves to the exit code. */
export async function listLines(cli: GpioCliOptions, io: CliIo): Promise<number> {
  const { backend, chipsDir } = await hardwareOf(cli);
  try {
    return printListing(await linesDocument(backend, chipsDir), humanLines, cli.listFormat, cli.binary, io);
  } finally {
    await backend.close();
  }
}
