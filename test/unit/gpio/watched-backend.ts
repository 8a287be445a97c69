/**
 * A GPIO backend as the GPIO rig hands it to the service: the real one (the sim), with
 *   - counts of what the service asked of it (chips opened, line reads), so a test asserts exact
 *     numbers of retries and samples;
 *   - every call it has not answered yet, so the rig knows when the work a timer started is done;
 *   - switches for faults only a real system has: reads that fail (a chip that dies without going
 *     away, an i2c expander that stops answering) and edges that are lost (the kernel's event
 *     FIFO overflowed).
 */
import { CtlError } from '../../../src/core/errors.js';
import type { EdgeEvent, GpioBackend, GpioChip, LineRequest } from '../../../src/hw/gpio/backend.js';

export interface BackendFaults {
  /** While true, every read of a line rejects with HW_IO (EIO). */
  readsFail: boolean;
  /** While true, edge events are dropped. */
  edgesLost: boolean;
}

export class WatchedBackend implements GpioBackend {
  readonly kind: string;
  readonly faults: BackendFaults = { readsFail: false, edgesLost: false };
  /** Attempts to open a chip, by path (failed ones included). */
  readonly opens = new Map<string, number>();
  /** Reads of a line, by `<chip path>:<offset>` (failed ones included). */
  readonly reads = new Map<string, number>();
  private readonly unanswered = new Set<Promise<unknown>>();

  constructor(private readonly backend: GpioBackend) {
    this.kind = backend.kind;
  }

  /** Calls not answered yet. */
  get pending(): ReadonlyArray<Promise<unknown>> {
    return [...this.unanswered];
  }

  openChip(path: string): Promise<GpioChip> {
    bump(this.opens, path);
    return this.track(this.backend.openChip(path).then((chip) => this.watchChip(chip)));
  }

  close(): Promise<void> {
    return this.backend.close();
  }

  private watchChip(chip: GpioChip): GpioChip {
    return {
      path: chip.path,
      name: chip.name,
      label: chip.label,
      lineCount: chip.lineCount,
      lineInfo: (offset) => this.track(chip.lineInfo(offset)),
      requestLine: (options) => {
        const onEdge = options.onEdge;
        // As the kernel does: the events lost are counted on the next one delivered.
        let lost = 0;
        const lossy = onEdge && {
          onEdge: (event: EdgeEvent) => {
            if (this.faults.edgesLost) lost++;
            else onEdge({ ...event, dropped: event.dropped + lost });
            if (!this.faults.edgesLost) lost = 0;
          },
        };
        return this.track(chip.requestLine({ ...options, ...lossy }).then((req) => this.watchRequest(chip.path, req)));
      },
      close: () => this.track(chip.close()),
    };
  }

  private watchRequest(chipPath: string, req: LineRequest): LineRequest {
    return {
      offset: req.offset,
      polled: req.polled,
      debounced: req.debounced,
      get: () => {
        bump(this.reads, `${chipPath}:${req.offset}`);
        if (this.faults.readsFail) return Promise.reject(new CtlError('HW_IO', 'read failed: EIO', { errno: 'EIO' }));
        return this.track(req.get());
      },
      set: (level) => this.track(req.set(level)),
      release: () => this.track(req.release()),
    };
  }

  private track<T>(call: Promise<T>): Promise<T> {
    this.unanswered.add(call);
    const forget = (): void => void this.unanswered.delete(call);
    call.then(forget, forget);
    return call;
  }
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
