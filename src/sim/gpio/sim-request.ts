/**
 * A granted line request of the sim backend (the LineRequest contract in ../backend.ts): one
 * line, an input or an output. Edges are queued and delivered one at a time, so a callback that
 * drives the line never runs nested inside a delivery; nothing is delivered once the request is
 * released or has failed.
 */
import { CtlError, messageOf } from '../../core/errors.js';
import type { Time } from '../../core/time.js';
import type { EdgeEvent, HwLog, LineRequest, LineSettings, RequestOptions } from '../../hw/gpio/backend.js';
import type { ClaimHolder, SimChipState } from './sim-chip-state.js';
import { isMissing, simIoError } from './sim-files.js';
import { SimInput } from './sim-input.js';
import { SimOutput } from './sim-output.js';

/** The line of a request, validated, with its directory. */
export interface PreparedLine {
  settings: LineSettings;
  dir: string;
}

export class SimLineRequest implements LineRequest, ClaimHolder {
  readonly offset: number;
  readonly polled: boolean;
  readonly debounced: boolean;
  private readonly input: SimInput | undefined;
  private readonly output: SimOutput | undefined;
  private state: 'starting' | 'active' | 'released' | 'failed' = 'starting';
  private failure: CtlError | undefined;
  private readonly queue: EdgeEvent[] = [];
  private delivering = false;

  /**
   * Claims the line and sets it up (an output gets its start level, an input is read and
   * watched). On any error the line is free again and the error is thrown.
   */
  constructor(
    private readonly chip: SimChipState,
    private readonly path: string,
    private readonly options: RequestOptions,
    line: PreparedLine,
    irq: boolean,
    private readonly log: HwLog,
    /** The clock of edge timestamps and debounce timers (InputHost.time). */
    readonly time: Time,
  ) {
    const { settings, dir } = line;
    this.offset = settings.offset;
    const claim = { consumer: options.consumer, direction: settings.direction, activeLow: settings.activeLow };
    chip.claim(this, new Map([[settings.offset, claim]]), path);
    try {
      if (settings.direction === 'output') {
        this.output = new SimOutput(dir, settings);
        this.output.start();
      } else {
        this.input = new SimInput(this, dir, settings, irq);
        this.input.watch();
      }
    } catch (err) {
      this.input?.stop();
      chip.unclaim(this);
      throw this.classify(`cannot request line ${this.offset} of ${path}`, err);
    }
    this.polled = settings.direction === 'input' && settings.edges === true && !irq;
    this.debounced = this.input?.debounced ?? false;
    this.state = 'active';
  }

  async get(): Promise<boolean> {
    this.assertActive();
    if (this.input === undefined) return this.output!.level;
    // A change the watch has not reported yet is an edge like any other: report it first.
    this.input.refresh(this.time.nowNs());
    this.assertActive();
    return this.input.level;
  }

  async set(level: boolean): Promise<void> {
    this.assertActive();
    if (this.output === undefined) {
      throw new CtlError('HW_IO', `GPIO ${this.path} line ${this.offset} is an input; it cannot be set`, { errno: 'EPERM' });
    }
    try {
      this.output.set(level);
    } catch (err) {
      const error = this.classify(`cannot set GPIO ${this.path} line ${this.offset}`, err);
      if (error.code === 'HW_GONE') this.fail(error);
      throw error;
    }
  }

  async release(): Promise<void> {
    if (this.state !== 'active') return;
    this.state = 'released';
    this.queue.length = 0;
    this.input?.stop();
    this.output?.release();
    this.chip.unclaim(this);
  }

  /** ClaimHolder: the request stops working; onFailure follows on the next tick. */
  fail(error: CtlError): void {
    if (this.state !== 'active') return;
    this.state = 'failed';
    this.failure = error;
    this.queue.length = 0;
    this.input?.stop();
    this.chip.unclaim(this);
    const onFailure = this.options.onFailure;
    if (onFailure) process.nextTick(onFailure, error);
  }

  /** SimBackend.drive: someone applied `high` to the line of this request. False for an output. */
  driven(offset: number, high: boolean, atNs: bigint, synthetic: boolean): boolean {
    if (offset !== this.offset || this.input === undefined || this.state !== 'active') return false;
    this.input.observe(high, atNs, synthetic);
    return true;
  }

  /** When the input's pending debounce expires (ns); undefined when nothing is pending. */
  nextExpiryNs(): bigint | undefined {
    if (this.state !== 'active') return undefined;
    return this.input?.debounceExpiresAtNs;
  }

  /** Synthetic time: settles the input's expired debounce period. */
  advanceTo(nowNs: bigint): void {
    if (this.state !== 'active') return;
    this.input?.advanceTo(nowNs);
  }

  /** InputHost: queues an edge and delivers the queue unless a delivery is under way. */
  emit(event: EdgeEvent): void {
    const onEdge = this.options.onEdge;
    if (this.state !== 'active' || !onEdge) return;
    this.queue.push(event);
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        try {
          onEdge(next);
        } catch (err) {
          this.log.warn(`${this.path}: edge handler of line ${next.offset} failed: ${messageOf(err)}`);
        }
        if (this.state !== 'active') break;
      }
    } finally {
      this.delivering = false;
    }
  }

  /** InputHost: a line could not be read. A vanished chip or line ends the request. */
  readFailed(offset: number, err: unknown): void {
    if (this.state !== 'active') return;
    this.fail(this.classify(`cannot read GPIO ${this.path} line ${offset}`, err));
  }

  private classify(what: string, err: unknown): CtlError {
    if (err instanceof CtlError) return err;
    if (!isMissing(err)) return simIoError(what, err, false);
    // Missing files: the whole chip went away (that fails every request of it), or this line did.
    try {
      this.chip.verify();
    } catch (verifyError) {
      return verifyError instanceof CtlError ? verifyError : simIoError(what, verifyError, false);
    }
    return this.failure ?? simIoError(what, err, true);
  }

  private assertActive(): void {
    if (this.state === 'active') return;
    if (this.failure) throw this.failure;
    throw new CtlError('HW_IO', `the request for GPIO ${this.path} line ${this.offset} was released`, {
      errno: 'EBADF',
    });
  }
}
