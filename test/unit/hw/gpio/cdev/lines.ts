/** Line settings shorthands shared by the cdev unit tests. */
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
