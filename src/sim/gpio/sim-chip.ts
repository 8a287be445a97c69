/**
 * A chip handle of the sim backend (the GpioChip contract in ../backend.ts). The handle belongs to
 * the chip directory it was opened on: once that directory is removed (or replaced), the handle
 * answers HW_GONE and a new openChip is needed, like a kernel chip fd after the device went away.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CtlError } from '../../core/errors.js';
import type { Time } from '../../core/time.js';
import {
  isDebouncePeriod,
  type GpioChip,
  type HwLog,
  type LineInfo,
  type LineRequest,
  type LineSettings,
  type RequestOptions,
} from '../../hw/gpio/backend.js';
import type { ChipDirectoryIdentity, SimChipState } from './sim-chip-state.js';
import { isDirectory, lineDirOf, readOptionalText } from './sim-files.js';
import { type PreparedLine, SimLineRequest } from './sim-request.js';

/** Kernel limit of a consumer label: 31 bytes plus the terminating NUL. */
const CONSUMER_MAX_BYTES = 31;

export interface SimChipInit {
  path: string;
  label: string;
  lineCount: number;
  identity: ChipDirectoryIdentity;
  /** The chip has no interrupts because the backend was told so (else a `no_irq` file says it). */
  noIrq: boolean;
  log: HwLog;
  /** The backend's clock: its requests stamp edges and time debounce with it. */
  time: Time;
}

export class SimChip implements GpioChip {
  readonly path: string;
  readonly name: string;
  readonly label: string;
  private readonly log: HwLog;
  readonly lineCount: number;
  private readonly identity: ChipDirectoryIdentity;
  private readonly noIrq: boolean;
  private readonly time: Time;
  private closed = false;

  constructor(
    private readonly state: SimChipState,
    init: SimChipInit,
  ) {
    this.path = init.path;
    this.name = state.name;
    this.label = init.label;
    this.log = init.log;
    this.lineCount = init.lineCount;
    this.identity = init.identity;
    this.noIrq = init.noIrq;
    this.time = init.time;
  }

  async lineInfo(offset: number): Promise<LineInfo> {
    this.assertUsable();
    const dir = this.lineDir(offset);
    const claim = this.state.claimOf(offset);
    return {
      offset,
      name: readOptionalText(join(dir, 'name'), ''),
      consumer: claim?.consumer ?? '',
      used: claim !== undefined,
      // gpio-sim lines are inputs until someone drives them.
      direction: claim?.direction ?? 'input',
      activeLow: claim?.activeLow ?? false,
    };
  }

  async requestLine(options: RequestOptions): Promise<LineRequest> {
    this.assertUsable();
    const settings = options.line;
    this.checkSettings(settings);
    const line: PreparedLine = { settings, dir: this.lineDir(settings.offset) };
    const irq = !this.noIrq && !existsSync(join(this.state.dir, 'no_irq'));
    return new SimLineRequest(
      this.state,
      this.path,
      { ...options, consumer: truncateConsumer(options.consumer) },
      line,
      irq,
      this.log,
      this.time,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertUsable(): void {
    if (this.closed) throw new CtlError('HW_IO', `GPIO chip ${this.path} handle is closed`, { errno: 'EBADF' });
    this.state.assertPresent(this.identity, this.path);
  }

  /** The directory of a line that exists; HW_IO (EINVAL) for any other offset. */
  private lineDir(offset: number): string {
    const dir = lineDirOf(this.state.dir, offset);
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.lineCount || !isDirectory(dir)) {
      throw this.invalid(`line ${offset} does not exist (the chip has ${this.lineCount} lines)`);
    }
    return dir;
  }

  /** The rules gpiolib-cdev enforces (EINVAL there). */
  private checkSettings(s: LineSettings): void {
    const debounce = s.debounceUs ?? 0;
    let problem: string | undefined;
    if (s.direction === 'output') {
      if (s.edges) problem = 'edge detection needs an input';
      else if (debounce > 0) problem = 'debounce needs an input';
    } else if (s.direction !== 'input') {
      problem = `direction ${String(s.direction)} is neither input nor output`;
    } else if (s.drive !== undefined && s.drive !== 'push-pull') {
      problem = `drive ${s.drive} needs an output`;
    }
    if (!isDebouncePeriod(debounce)) {
      problem = `debounce ${debounce} us is not a valid period`;
    }
    if (problem) throw this.invalid(`line ${s.offset}: ${problem}`);
  }

  private invalid(message: string): CtlError {
    return new CtlError('HW_IO', `GPIO chip ${this.path}: ${message}`, { errno: 'EINVAL' });
  }
}

function truncateConsumer(consumer: string): string {
  const chars = Array.from(consumer); // whole code points, never half a surrogate pair
  while (Buffer.byteLength(chars.join(''), 'utf8') > CONSUMER_MAX_BYTES) chars.pop();
  return chars.join('');
}
