/**
 * What a chip says about itself and its lines, read through a backend (the kernel's chip and line
 * info on cdev: GPIO_GET_CHIPINFO_IOCTL, GPIO_V2_GET_LINEINFO_IOCTL). Used to list the hardware
 * (`ctl-mqtt-gpio --list-lines`): nothing is requested, so a line in use stays with its owner.
 */
import { messageOf } from '../../core/errors.js';
import type { GpioBackend, LineInfo } from './backend.js';

/** A line whose info could not be read: its offset and why. */
export interface UnreadableLine {
  offset: number;
  error: string;
}

export interface ChipDescription {
  path: string;
  /** Kernel chip name (`gpiochip0`). */
  name: string;
  label: string;
  lineCount: number;
  /** Every line, in offset order. */
  lines: (LineInfo | UnreadableLine)[];
}

export function isUnreadable(line: LineInfo | UnreadableLine): line is UnreadableLine {
  return 'error' in line;
}

/**
 * Opens the chip at `path`, reads the info of each of its lines and closes it again. Rejects
 * with the backend's error when the chip cannot be opened; a line whose info cannot be read is
 * listed with its error and the others still are.
 */
export async function describeChip(backend: GpioBackend, path: string): Promise<ChipDescription> {
  const chip = await backend.openChip(path);
  try {
    const lines: (LineInfo | UnreadableLine)[] = [];
    for (let offset = 0; offset < chip.lineCount; offset++) {
      try {
        lines.push(await chip.lineInfo(offset));
      } catch (err) {
        lines.push({ offset, error: messageOf(err) });
      }
    }
    return { path: chip.path, name: chip.name, label: chip.label, lineCount: chip.lineCount, lines };
  } finally {
    await chip.close();
  }
}
