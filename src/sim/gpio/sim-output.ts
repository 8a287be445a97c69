/**
 * One requested output line of the sim: what the driver drives goes into `value` as a physical
 * level. Open drain and open source behave as gpiolib emulates them on gpio-sim: the "released"
 * state (open drain driving high, open source driving low) turns the line into an input, so
 * `value` shows the pull applied to it.
 */
import type { Drive, LineSettings } from '../../hw/gpio/backend.js';
import { readPullLevel, writeValue } from './sim-files.js';

export class SimOutput {
  readonly offset: number;
  private readonly activeLow: boolean;
  private readonly drive: Drive;
  /** The logical level driven now. */
  private driven: boolean;

  constructor(
    private readonly dir: string,
    settings: LineSettings,
  ) {
    this.offset = settings.offset;
    this.activeLow = settings.activeLow;
    this.drive = settings.drive ?? 'push-pull';
    this.driven = settings.initialValue ?? false;
  }

  /**
   * The logical level the line has, which is what a read of an output returns: the driven level,
   * except for a released open-drain/open-source line, which reads its pull (as on gpio-sim).
   */
  get level(): boolean {
    return this.physicalFor(this.driven) !== this.activeLow;
  }

  /** Drives `logical`; throws the file-system error when `value` cannot be written. */
  set(logical: boolean): void {
    writeValue(this.dir, this.physicalFor(logical));
    this.driven = logical;
  }

  /** Writes the level the output was requested with (throws like `set`). */
  start(): void {
    this.set(this.driven);
  }

  /** Released lines go back to the pull level, as gpio-sim does when its user lets go. */
  release(): void {
    try {
      writeValue(this.dir, this.pullLevel());
    } catch {
      // The line is released either way; its file is the board's business now.
    }
  }

  private physicalFor(logical: boolean): boolean {
    const high = logical !== this.activeLow;
    if (this.drive === 'open-drain' && high) return this.pullLevel();
    if (this.drive === 'open-source' && !high) return this.pullLevel();
    return high;
  }

  private pullLevel(): boolean {
    return readPullLevel(this.dir) ?? false;
  }
}
