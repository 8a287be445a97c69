/**
 * Merged GPIO configuration → the typed model, with the checks the schema cannot express:
 * two channels on one line, `debounce` (µs, not in the schema), counter settings that cannot
 * work, control names that collide with a counter's `_total` / `_current` controls, and the
 * button keys (press-config.ts, not in the schema either).
 */
import type { JsonObject, JsonValue } from '../../core/config/jsonc.js';
import type { MergedChannel, MergedConfig } from '../../core/config/driver-config-spec.js';
import { channelKeyProblem, channelProblem, commonSettingsOf } from '../../core/config/merge-channels.js';
import type { Problem } from '../../core/config/problems.js';
import { rule } from '../../core/config/config-rules.js';
import { decimalPlacesOf } from '../../core/config/decimal-places.js';
import { isDebouncePeriod, MAX_DEBOUNCE_US } from '../../hw/gpio/backend.js';
import { facts } from './schema-module/gpio-schema.js';
import { controlIdsOf, currentControlId, totalControlId } from './control-ids.js';
import { directionOf } from './gpio-direction.js';
import { bindingProblems, pressesOf } from './press-config.js';
import { DEFAULT_DEBOUNCE_US, type CounterConfig, type GpioChannelConfig, type GpioConfig, type GpioLine } from './gpio-config-model.js';

const defaults = facts.channelDefaults;

/** The smallest counter `multiplier` (pulses per kWh or m^3) whose totals and rates stay finite. */
export const MIN_COUNTER_MULTIPLIER = 1e-9;

interface Collector {
  problems: Problem[];
  warnings: Problem[];
}

function lineOf(gpio: JsonValue): GpioLine {
  if (typeof gpio === 'number') return { legacyNumber: gpio };
  const g = gpio as JsonObject;
  // Paths are compared as written, minus redundant slashes (`/dev//gpiochip0`).
  return { chip: (g.chip as string).replace(/\/{2,}/g, '/'), offset: g.offset as number };
}

function lineKey(line: GpioLine): string {
  return 'legacyNumber' in line ? `#${line.legacyNumber}` : `${line.chip}\0${line.offset}`;
}

function flag(v: JsonObject, key: keyof typeof defaults): boolean {
  const value = v[key];
  return typeof value === 'boolean' ? value : (defaults[key] as boolean);
}

function debounceOf(c: MergedChannel, out: Collector): number {
  if (!Object.hasOwn(c.value, 'debounce')) return DEFAULT_DEBOUNCE_US;
  const d = c.value.debounce;
  if (typeof d === 'number' && isDebouncePeriod(d)) return d;
  const broken =
    typeof d === 'number' && d > MAX_DEBOUNCE_US ? rule('gpio.debounce-too-long', { limit: MAX_DEBOUNCE_US }) : rule('gpio.debounce');
  out.problems.push(channelKeyProblem(c, 'debounce', broken, { value: d }));
  return DEFAULT_DEBOUNCE_US;
}

function decimalsOf(c: MergedChannel, key: 'decimal_points_current' | 'decimal_points_total', out: Collector): number {
  const raw = c.value[key];
  return typeof raw === 'number' ? decimalPlacesOf(c, key, raw, out.warnings) : defaults[key];
}

function counterOf(c: MergedChannel, direction: 'input' | 'output', out: Collector): CounterConfig | null {
  const type = c.value.type ?? defaults.type;
  if (type !== 'watt_meter' && type !== 'water_meter') return null;
  if (direction === 'output') {
    out.warnings.push(channelKeyProblem(c, 'type', 'ignored: a pulse counter needs an input channel', { value: type }));
    return null;
  }
  const multiplier = typeof c.value.multiplier === 'number' ? c.value.multiplier : defaults.multiplier;
  if (!(multiplier > 0)) {
    out.problems.push(channelKeyProblem(c, 'multiplier', rule('gpio.multiplier-not-positive'), { value: multiplier }));
  } else if (multiplier < MIN_COUNTER_MULTIPLIER) {
    // Below this, totals and rates overflow a double (1e-300 pulses per kWh gives an infinite
    // total after one pulse); one pulse per TWh is far beyond any real meter.
    const broken = rule('gpio.multiplier-too-small', { limit: MIN_COUNTER_MULTIPLIER });
    out.problems.push(channelKeyProblem(c, 'multiplier', broken, { value: multiplier }));
  }
  const edge = c.value.edge;
  return {
    type,
    edge: edge === 'rising' || edge === 'falling' || edge === 'both' ? edge : 'auto',
    multiplier,
    decimalPointsCurrent: decimalsOf(c, 'decimal_points_current', out),
    decimalPointsTotal: decimalsOf(c, 'decimal_points_total', out),
  };
}

function channelOf(c: MergedChannel, out: Collector): GpioChannelConfig | null {
  const v = c.value;
  if (!Object.hasOwn(v, 'gpio')) {
    out.warnings.push(
      channelProblem(
        c,
        c.system
          ? `skipped: the board definition of "${c.id}" has no gpio`
          : `skipped: channel "${c.id}" has no gpio (kept in the file, not published)`,
      ),
    );
    return null;
  }
  const direction = directionOf(c.id, v.direction);
  const counter = counterOf(c, direction, out);
  return {
    name: c.id,
    system: c.system,
    line: lineOf(v.gpio!),
    direction,
    inverted: flag(v, 'inverted'),
    openDrain: flag(v, 'open_drain'),
    openSource: flag(v, 'open_source'),
    initialState: flag(v, 'initial_state'),
    loadPreviousState: flag(v, 'load_previous_state'),
    debounceUs: debounceOf(c, out),
    counter,
    presses: pressesOf(c, direction === 'output' ? 'output' : counter ? 'meter' : 'input', out),
  };
}

export function buildGpioModel(merged: MergedConfig): { model: GpioConfig; problems: Problem[]; warnings: Problem[] } {
  const out: Collector = { problems: [], warnings: [] };
  const channels: GpioChannelConfig[] = [];
  const lines = new Map<string, string>();
  const controls = new Map<string, string>();
  // A board input may become a meter with one click in the config editor, which checks each
  // channel alone: its meter's control names are never a custom channel's name.
  const boardMeterNames = new Map<string, string>();
  for (const c of merged.channels) {
    if (c.system && directionOf(c.id, c.value.direction) === 'input') {
      for (const control of [totalControlId(c.id), currentControlId(c.id)]) boardMeterNames.set(control, c.id);
    }
  }
  for (const c of merged.channels) {
    const boardInput = c.system ? undefined : boardMeterNames.get(c.id);
    if (boardInput !== undefined) {
      out.problems.push(channelKeyProblem(c, 'name', rule('gpio.board-meter-name', { channel: boardInput }), { value: c.id }));
    }
    const ch = channelOf(c, out);
    if (!ch) continue;
    const key = lineKey(ch.line);
    const holder = lines.get(key);
    if (holder !== undefined) {
      out.problems.push(channelKeyProblem(c, 'gpio', rule('gpio.line-used-twice', { channel: holder }), { value: c.value.gpio }));
    } else {
      lines.set(key, ch.name);
    }
    for (const control of controlIdsOf(ch)) {
      const owner = controls.get(control);
      if (owner !== undefined && owner !== ch.name) {
        const broken = rule('gpio.control-collision', { control, channel: owner });
        out.problems.push(channelKeyProblem(c, 'name', broken, { value: ch.name }));
      }
      controls.set(control, ch.name);
    }
    channels.push(ch);
  }
  out.problems.push(...bindingProblems(merged.channels, channels));
  const model: GpioConfig = { ...commonSettingsOf(merged.top, facts.rootDefaults), channels };
  return { model, ...out };
}
