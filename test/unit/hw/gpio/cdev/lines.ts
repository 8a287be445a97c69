/** Line settings shorthands shared by the cdev unit tests. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LineSettings } from '../../../../../src/hw/gpio/backend.js';

/** An input with edges (override anything with `more`). */
export const input = (offset: number, more: Partial<LineSettings> = {}): LineSettings => ({
  offset,
  direction: 'input',
  activeLow: false,
  edges: true,
  ...more,
});

export const output = (offset: number, more: Partial<LineSettings> = {}): LineSettings => ({
  offset,
  direction: 'output',
  activeLow: false,
  ...more,
});

/** Waits (up to 1 s) until `cond` holds, else fails naming `what`. */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await sleep(5);
  assert.ok(cond(), `timed out waiting for ${what}`);
}
