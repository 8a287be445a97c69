/**
 * The GPIO service's durable state: output levels and exact counter totals in
 * `state.json` = `{"version": 1, "outputs": {name: level}, "counters": {name: {pulses, base,
 * multiplier, edge}}}`. A counter's total is `base + pulses / multiplier`: pulses stay an exact
 * integer count, never a rounded string, so restarts neither lose nor gain a fraction. `edge` is the
 * edge the counter counts, kept once decided so that a restart never decides it again (files
 * written before it was kept have none: the counter then decides once more). An input detecting
 * presses keeps its press counts under `"presses": {name: {single, long, double, shortlong}}`, so
 * a restart never publishes them as 0.
 * Outputs are saved at once on every change; counters and press counts at most every save
 * interval and on stop.
 */
import { loadStateFile, StateSaver, type StateDecoder } from '../../../core/persist/state-file.js';
import type { Time } from '../../../core/time.js';
import type { Logger } from '../../../core/log.js';
import type { CounterRecord } from './counter-record.js';
import { EDGE_MODES, type EdgeMode } from './edge-mode.js';
import { GESTURES, type Gesture } from '../../config/gpio-config-model.js';

interface StateDocument {
  version: 1;
  outputs: Record<string, boolean>;
  counters: Record<string, CounterRecord>;
  /** Press counts of the inputs detecting presses, by gesture (absent in files written before them). */
  presses?: Record<string, PressCounts>;
}

/** How many of each gesture an input has made since its counters began. */
export type PressCounts = Partial<Record<Gesture, number>>;

export interface GpioStateOptions {
  path: string;
  saveIntervalMs: number;
  log: Logger;
  /** Saves started failing (true) or work again (false). */
  onSaveFailing?: (failing: boolean) => void;
  /** The clock and timers of the save interval, and the wall clock of a corrupt file's name. */
  time: Pick<Time, 'now' | 'at' | 'wallNow'>;
}

export class GpioStateStore {
  private constructor(
    private readonly doc: StateDocument,
    private readonly saver: StateSaver,
  ) {}

  static async open(options: GpioStateOptions): Promise<GpioStateStore> {
    const loaded = await loadStateFile(options.path, decodeState, options.log, () => Math.floor(options.time.wallNow() / 1000));
    const doc: StateDocument = loaded ?? { version: 1, outputs: keyedByName(), counters: keyedByName() };
    const saver = new StateSaver({
      path: options.path,
      intervalMs: options.saveIntervalMs,
      log: options.log,
      ...(options.onSaveFailing ? { onFailingChange: options.onSaveFailing } : {}),
      time: options.time,
      serialize: () => JSON.stringify(doc, null, 1) + '\n',
    });
    return new GpioStateStore(doc, saver);
  }

  outputLevel(name: string): boolean | undefined {
    return Object.hasOwn(this.doc.outputs, name) ? this.doc.outputs[name] : undefined;
  }

  counter(name: string): CounterRecord | undefined {
    return Object.hasOwn(this.doc.counters, name) ? this.doc.counters[name] : undefined;
  }

  /**
   * Records an output level and resolves once it is on disk. Writes are coalesced: a burst of
   * levels costs a few writes, and each call resolves with the first write that began after it.
   */
  async setOutput(name: string, level: boolean): Promise<void> {
    // The same level and nothing being written: it is on disk already.
    if (this.doc.outputs[name] === level && !this.saver.busy) return;
    this.doc.outputs[name] = level;
    await this.saver.saveNow();
  }

  /** The press count of one gesture of an input (0 when none was saved). */
  pressCount(name: string, gesture: Gesture): number {
    const counts = this.doc.presses !== undefined && Object.hasOwn(this.doc.presses, name) ? this.doc.presses[name] : undefined;
    return counts?.[gesture] ?? 0;
  }

  /** Records the press count of one gesture; written within the save interval. */
  setPressCount(name: string, gesture: Gesture, count: number): void {
    const presses = (this.doc.presses ??= keyedByName());
    (presses[name] ??= {})[gesture] = count;
    this.saver.saveSoon();
  }

  /** Records a counter; written within the save interval. */
  setCounter(name: string, record: CounterRecord): void {
    this.doc.counters[name] = copyRecord(record);
    this.saver.saveSoon();
  }

  /** Records a counter and writes it at once (a total set over MQTT). */
  async setCounterNow(name: string, record: CounterRecord): Promise<void> {
    this.doc.counters[name] = copyRecord(record);
    await this.saver.saveNow();
  }

  /** True while a write is in flight or asked for. */
  get busy(): boolean {
    return this.saver.busy;
  }

  /** Saves that failed since the start. */
  get savesFailed(): number {
    return this.saver.failedWrites;
  }

  flush(): Promise<void> {
    return this.saver.flush();
  }

  close(): Promise<void> {
    return this.saver.close();
  }
}

const decodeState: StateDecoder<StateDocument> = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { invalid: 'is not a JSON object' };
  const v = value as Record<string, unknown>;
  if (v.version !== 1) return { invalid: `has unknown version ${JSON.stringify(v.version)} (expected 1)` };
  const outputs: Record<string, boolean> = keyedByName();
  const counters: Record<string, CounterRecord> = keyedByName();
  if (!isPlainObject(v.outputs)) return { invalid: '"outputs" is not an object' };
  for (const [name, level] of Object.entries(v.outputs)) {
    if (typeof level !== 'boolean') return { invalid: `outputs.${name} is not true or false` };
    outputs[name] = level;
  }
  if (!isPlainObject(v.counters)) return { invalid: '"counters" is not an object' };
  for (const [name, rec] of Object.entries(v.counters)) {
    if (!isPlainObject(rec)) return { invalid: `counters.${name} is not an object` };
    const { pulses, base, multiplier, edge } = rec as Record<string, unknown>;
    if (!Number.isSafeInteger(pulses) || (pulses as number) < 0) return { invalid: `counters.${name}.pulses is not a count` };
    if (typeof base !== 'number' || !Number.isFinite(base)) return { invalid: `counters.${name}.base is not a number` };
    if (typeof multiplier !== 'number' || !(multiplier > 0) || !Number.isFinite(multiplier))
      return { invalid: `counters.${name}.multiplier is not a positive number` };
    if (edge !== undefined && !EDGE_MODES.includes(edge as EdgeMode))
      return { invalid: `counters.${name}.edge is not rising, falling or both` };
    counters[name] = copyRecord({ pulses: pulses as number, base, multiplier, edge: edge as EdgeMode | undefined });
  }
  if (v.presses === undefined) return { version: 1, outputs, counters };
  if (!isPlainObject(v.presses)) return { invalid: '"presses" is not an object' };
  const presses: Record<string, PressCounts> = keyedByName();
  for (const [name, counts] of Object.entries(v.presses)) {
    if (!isPlainObject(counts)) return { invalid: `presses.${name} is not an object` };
    const kept: PressCounts = {};
    for (const [gesture, count] of Object.entries(counts)) {
      if (!GESTURES.includes(gesture as Gesture)) return { invalid: `presses.${name}.${gesture} is not a gesture` };
      if (!Number.isSafeInteger(count) || (count as number) < 0) return { invalid: `presses.${name}.${gesture} is not a count` };
      kept[gesture as Gesture] = count as number;
    }
    presses[name] = kept;
  }
  return { version: 1, outputs, counters, presses };
};

function copyRecord(record: CounterRecord): CounterRecord {
  const { pulses, base, multiplier, edge } = record;
  return edge === undefined ? { pulses, base, multiplier } : { pulses, base, multiplier, edge };
}

/**
 * A map from channel names without a prototype: a name is user text, and on a plain object
 * `__proto__` would set the prototype instead of a key (its level or total silently never saved).
 */
function keyedByName<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
