/**
 * The names src/gpio imports for time, kept while that floor is being restructured: they are
 * core/time.ts's. Everything else imports core/time.ts; this file goes once src/gpio does too.
 */
import { systemTime, type Time } from './time.js';

export type Clock = Time;
export const systemClock: Time = systemTime;

/** CLOCK_MONOTONIC in nanoseconds (`systemTime.nowNs`). */
export function monotonicNs(): bigint {
  return systemTime.nowNs();
}
