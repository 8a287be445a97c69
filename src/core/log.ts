/**
 * Logging to stderr (journald adds time and unit). One line per message, prefixed with the level
 * and the namespace (`ctl:gpio:cdev`), like the originals' `ERROR: [wb-gpio] ...`.
 * Loggers are passed in, never global, so tests can capture them.
 */

import type { Time } from './time.js';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
  /** True when debug messages are printed (lets callers skip building expensive messages). */
  readonly debugEnabled: boolean;
  /** A logger for a sub-namespace: `child('cdev')` of `ctl:gpio` logs as `ctl:gpio:cdev`. */
  child(namespace: string): Logger;
}

export interface LoggerOptions {
  namespace: string;
  /** Print debug messages; a function is asked at each message (a reload may switch it). */
  debug?: boolean | (() => boolean);
  /** Silence info messages (the originals' negative -d levels). */
  quietInfo?: boolean;
  /** Where lines go; stderr by default. */
  write?: (line: string) => void;
  /**
   * Other settings for a direct child namespace and everything under it, e.g. `{ mqtt: {...} }`
   * for `ctl:adc:mqtt` (the originals' -d levels treat the MQTT layer apart from the service).
   */
  children?: Readonly<Record<string, { debug?: boolean | (() => boolean); quietInfo?: boolean }>>;
}

const PREFIX: Record<LogLevel, string> = {
  error: 'ERROR',
  warn: 'WARNING',
  info: 'INFO',
  debug: 'DEBUG',
};

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const asFunction = (d: boolean | (() => boolean)) => (typeof d === 'function' ? d : () => d);
  const make = (ns: string, debugOn: () => boolean, quietInfo: boolean, top: boolean): Logger => {
    const emit = (level: LogLevel, msg: string) => write(`${PREFIX[level]}: [${ns}] ${msg}`);
    return {
      error: (msg) => emit('error', msg),
      warn: (msg) => emit('warn', msg),
      info: (msg) => {
        if (!quietInfo) emit('info', msg);
      },
      debug: (msg) => {
        if (debugOn()) emit('debug', msg);
      },
      get debugEnabled() {
        return debugOn();
      },
      child: (sub) => {
        const own = top ? options.children?.[sub] : undefined;
        return make(`${ns}:${sub}`, own?.debug !== undefined ? asFunction(own.debug) : debugOn, own?.quietInfo ?? quietInfo, false);
      },
    };
  };
  return make(options.namespace, asFunction(options.debug ?? false), options.quietInfo ?? false, true);
}

/**
 * Rate limiting for repeated failures: a broken channel must never flood the journal.
 * `shouldLog(key)` is true the first time a key is seen and then at most once per interval;
 * the number of suppressed repeats is returned so the next line can say how many were skipped.
 */
export class LogRateLimiter {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  constructor(
    private readonly intervalMs: number,
    private readonly time: Pick<Time, 'now'>,
  ) {}

  /** Returns null when the message must be suppressed, else the count suppressed since the last one. */
  check(key: string): number | null {
    const t = this.time.now();
    const entry = this.last.get(key);
    if (entry === undefined || t - entry.at >= this.intervalMs) {
      const suppressed = entry?.suppressed ?? 0;
      this.last.set(key, { at: t, suppressed: 0 });
      return suppressed;
    }
    entry.suppressed++;
    return null;
  }

  /** Forget a key (the condition cleared), so the next failure is logged at once. */
  reset(key: string): void {
    this.last.delete(key);
  }
}
