/**
 * A granted line request of the sim backend (the LineRequest contract in ../backend.ts).
 * Edges are queued and delivered one at a time, so a callback that drives another line (or the
 * same one) never runs nested inside a delivery; nothing is delivered once the request is
 * released or has failed.
 */
import { CtlError, messageOf } from '../../core/errors.js';
import type { EdgeEvent, HwLog, LineRequest, LineSettings, RequestOptions } from '../../hw/gpio/backend.js';
import type { ClaimHolder, SimChipState } from './sim-chip-state.js';
import { isMissing, simIoError } from './sim-files.js';
import { SimInput } from './sim-input.js';
import { SimOutput } from './sim-output.js';

/** One line of a request, validated, with its directory. */
export interface PreparedLine {
  settings: LineSettings;
  dir: string;
}

export class SimLineRequest implements LineRequest, ClaimHolder {
  readonly offsets: readonly number[];
  readonly polled: ReadonlySet<number>;
  readonly debounced: ReadonlySet<number>;
  private readonly inputs = new Map<number, SimInput>();
  private readonly outputs = new Map<number, SimOutput>();
  private state: 'starting' | 'active' | 'released' | 'failed' = 'starting';
  private failure: CtlError | undefined;
  private readonly queue: EdgeEvent[] = [];
  private delivering = false;

  /**
   * Claims the lines and sets them up (outputs get their start level, inputs are read and
   * watched). All or nothing: on any error the lines are free again and the error is thrown.
   */
  constructor(
    private readonly chip: SimChipState,
    private readonly path: string,
    private readonly options: RequestOptions,
    lines: readonly PreparedLine[],
    irq: boolean,
    private readonly log: HwLog,
  ) {
    this.offsets = lines.map((l) => l.settings.offset);
    const claims = new Map(
      lines.map(({ settings: s }) => [
        s.offset,
        { consumer: options.consumer, direction: s.direction, activeLow: s.activeLow },
      ]),
    );
    chip.claim(this, claims, path);
    const polled = new Set<number>();
    const debounced = new Set<number>();
    try {
      for (const { settings, dir } of lines) {
        if (settings.direction === 'output') {
          const output = new SimOutput(dir, settings);
          this.outputs.set(settings.offset, output);
          output.start();
          continue;
        }
        const input = new SimInput(this, dir, settings, irq);
        this.inputs.set(settings.offset, input);
        input.watch();
        if (settings.edges && !irq) polled.add(settings.offset);
        if (input.debounced) debounced.add(settings.offset);
      }
    } catch (err) {
      this.stopLines();
      chip.unclaim(this);
      throw this.classify(`cannot request lines ${this.offsets.join(',')} of ${path}`, err);
    }
    this.polled = polled;
    this.debounced = debounced;
    this.state = 'active';
  }

  async get(offsets: readonly number[] = this.offsets): Promise<boolean[]> {
    this.assertActive();
    const levels: boolean[] = [];
    const now = process.hrtime.bigint();
    for (const offset of offsets) {
      const input = this.inputs.get(offset);
      if (input) {
        // A change the watch has not reported yet is an edge like any other: report it first.
        input.refresh(now);
        this.assertActive();
        levels.push(input.level);
        continue;
      }
      const output = this.outputs.get(offset);
      if (!output) throw this.notMine(offset);
      levels.push(output.level);
    }
    return levels;
  }

  async set(levels: ReadonlyMap<number, boolean>): Promise<void> {
    this.assertActive();
    for (const offset of levels.keys()) {
      if (!this.outputs.has(offset)) {
        throw this.inputs.has(offset)
          ? new CtlError('HW_IO', `GPIO ${this.path} line ${offset} is an input; it cannot be set`, { errno: 'EPERM' })
          : this.notMine(offset);
      }
    }
    for (const [offset, level] of levels) {
      try {
        this.outputs.get(offset)?.set(level);
      } catch (err) {
        const error = this.classify(`cannot set GPIO ${this.path} line ${offset}`, err);
        if (error.code === 'HW_GONE') this.fail(error);
        throw error;
      }
    }
  }

  async release(): Promise<void> {
    if (this.state !== 'active') return;
    this.state = 'released';
    this.queue.length = 0;
    this.stopLines();
    for (const output of this.outputs.values()) output.release();
    this.chip.unclaim(this);
  }

  /** ClaimHolder: the request stops working; onFailure follows on the next tick. */
  fail(error: CtlError): void {
    if (this.state !== 'active') return;
    this.state = 'failed';
    this.failure = error;
    this.queue.length = 0;
    this.stopLines();
    this.chip.unclaim(this);
    const onFailure = this.options.onFailure;
    if (onFailure) process.nextTick(onFailure, error);
  }

  /** SimBackend.drive: someone applied `high` to a line of this request. False for an output. */
  driven(offset: number, high: boolean, atNs: bigint, synthetic: boolean): boolean {
    const input = this.inputs.get(offset);
    if (!input || this.state !== 'active') return false;
    input.observe(high, atNs, synthetic);
    return true;
  }

  /** The earliest pending debounce expiry of this request's inputs (ns). */
  nextExpiryNs(): bigint | undefined {
    let next: bigint | undefined;
    if (this.state !== 'active') return next;
    for (const input of this.inputs.values()) {
      const at = input.debounceExpiresAtNs;
      if (at !== undefined && (next === undefined || at < next)) next = at;
    }
    return next;
  }

  /** Synthetic time: settles expired debounce periods of every input. */
  advanceTo(nowNs: bigint): void {
    if (this.state !== 'active') return;
    for (const input of this.inputs.values()) input.advanceTo(nowNs);
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
    throw new CtlError('HW_IO', `the request for GPIO ${this.path} lines ${this.offsets.join(',')} was released`, {
      errno: 'EBADF',
    });
  }

  private notMine(offset: number): CtlError {
    return new CtlError('HW_IO', `GPIO ${this.path} line ${offset} is not part of this request`, { errno: 'EINVAL' });
  }

  private stopLines(): void {
    for (const input of this.inputs.values()) input.stop();
  }
}
