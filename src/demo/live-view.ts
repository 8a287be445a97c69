/**
 * The demo's terminal output. On a TTY: one frame (hints, the devices' controls, the services'
 * state, the last log lines) redrawn in place with ANSI cursor moves, at most 4 times a second
 * and only when something changed (plus once a second for the clock); lines are cut to the
 * terminal width so a frame never wraps. Elsewhere (a pipe, a CI log): log lines as they come and
 * one compact line per device every 5 s, no escape codes.
 */
import type { DeviceViewModel } from '../console/devices/device-view-model.js';
import { systemTime, type Time, type Timer } from '../core/time.js';
import { clockText, compactLines, deviceLines, fit } from './view-format.js';

export interface ViewOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

export interface LiveViewOptions {
  readonly out: ViewOutput;
  readonly model: DeviceViewModel;
  /** Lines above the devices (how to connect, how to switch an output). */
  readonly header: readonly string[];
  /** Lines below the devices (the services' state), asked for at every frame. */
  readonly status: () => readonly string[];
  /** Seconds between compact lines when not on a TTY. */
  readonly summaryEveryS?: number;
  /** The clock and timers of the frames; default systemTime. */
  readonly time?: Time;
}

const FRAME_MIN_MS = 250;
const RECENT_LOG_LINES = 4;
const CSI = '\x1b[';

export class LiveView {
  private readonly tty: boolean;
  private readonly time: Time;
  private readonly started: number;
  private readonly recent: string[] = [];
  private drawnLines = 0;
  private lastFrameAt = 0;
  private pending: Timer | undefined;
  private ticker: Timer | undefined;
  private running = false;
  private readonly onResize = (): void => {
    this.out.write(`${CSI}2J${CSI}H`);
    this.drawnLines = 0;
    this.draw();
  };

  constructor(private readonly options: LiveViewOptions) {
    this.tty = options.out.isTTY === true;
    this.time = options.time ?? systemTime;
    this.started = this.time.now();
  }

  private get out(): ViewOutput {
    return this.options.out;
  }

  /** True when frames are redrawn in place. */
  get interactive(): boolean {
    return this.tty;
  }

  start(): void {
    this.running = true;
    if (this.tty) {
      this.out.write(`${CSI}?25l`);
      this.out.on?.('resize', this.onResize);
      this.draw();
      this.ticker = this.time.every(1000, () => this.draw());
    } else {
      for (const line of this.options.header) this.out.write(line + '\n');
      this.ticker = this.time.every((this.options.summaryEveryS ?? 5) * 1000, () => this.printSummary());
    }
  }

  /** A log line (a service's stderr, a demo message). */
  log(line: string): void {
    if (!this.running || !this.tty) {
      this.out.write(line + '\n');
      return;
    }
    this.recent.push(line);
    if (this.recent.length > RECENT_LOG_LINES) this.recent.shift();
    this.changed();
  }

  /** Something in the model or the status changed: redraw soon (TTY). */
  changed(): void {
    if (!this.running || !this.tty || this.pending !== undefined) return;
    this.pending = this.time.at(this.lastFrameAt + FRAME_MIN_MS, () => {
      this.pending = undefined;
      this.draw();
    });
  }

  /** Final frame (or compact lines), then plain output again. */
  stop(): void {
    if (!this.running) return;
    this.ticker?.cancel();
    this.pending?.cancel();
    this.pending = undefined;
    if (this.tty) {
      this.draw();
      this.out.off?.('resize', this.onResize);
      this.out.write(`${CSI}?25h`);
    } else {
      this.printSummary();
    }
    this.running = false;
  }

  private elapsed(): string {
    return clockText((this.time.now() - this.started) / 1000);
  }

  private printSummary(): void {
    for (const line of compactLines(this.options.model.list())) this.out.write(`[${this.elapsed()}] ${line}\n`);
  }

  /**
   * Never taller than the screen (cursor moves cannot reach lines scrolled off the top): the
   * recent log gives way first, then the last device lines.
   */
  private frame(): string[] {
    const columns = this.out.columns ?? 80;
    const height = Math.max(1, (this.out.rows ?? 24) - 1);
    const head = [...this.options.header.map((l, i) => (i === 0 ? `${l}  up ${this.elapsed()}` : l)), ''];
    const status = ['', ...this.options.status()];
    let devices = deviceLines(this.options.model.list(), columns);
    const room = height - head.length - status.length;
    if (devices.length > room) {
      const keep = Math.max(0, room - 1);
      devices = [...devices.slice(0, keep), `  ... ${devices.length - keep} more lines (enlarge the window)`];
    }
    const logRoom = Math.min(this.recent.length, height - head.length - devices.length - status.length - 1);
    const log = logRoom > 0 ? ['Recent log:', ...this.recent.slice(-logRoom).map((l) => '  ' + l)] : [];
    return [...head, ...devices, ...status, ...log].slice(0, height).map((l) => fit(l, columns));
  }

  private draw(): void {
    const lines = this.frame();
    let text = this.drawnLines > 0 ? `${CSI}${this.drawnLines}A\r` : '';
    for (const line of lines) text += `${CSI}2K${line}\n`;
    text += `${CSI}J`;
    this.out.write(text);
    this.drawnLines = lines.length;
    this.lastFrameAt = this.time.now();
  }
}
