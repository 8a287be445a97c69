/**
 * The button keys of a GPIO input, outside the spec's schema like `debounce` (so the schema the
 * service prints stays the spec's, and these are checked here): `press_detection`,
 * `long_press_ms`, `second_press_wait_ms` and `bindings`. `pressesOf` reads one channel's;
 * `bindingProblems` checks, once every channel is known, that each binding names an output.
 */
import type { JsonObject, JsonValue } from '../../core/config/jsonc.js';
import type { MergedChannel } from '../../core/config/driver-config-spec.js';
import { channelKeyProblem, channelPathProblem } from '../../core/config/merge-channels.js';
import type { Problem } from '../../core/config/problems.js';
import { rule, TYPE_WORDS } from '../../core/config/config-rules.js';
import {
  BINDING_ACTIONS,
  GESTURES,
  LONG_PRESS_MS,
  SECOND_PRESS_WAIT_MS,
  gesturesOf,
  type Binding,
  type BindingAction,
  type Gesture,
  type GpioChannelConfig,
  type PressConfig,
} from './gpio-config-model.js';

/** The keys this module reads; a channel without any of them detects nothing. */
export const PRESS_KEYS = ['press_detection', 'long_press_ms', 'second_press_wait_ms', 'bindings'] as const;

const BINDING_KEYS = new Set(['gesture', 'output', 'action']);

interface Found {
  problems: Problem[];
  warnings: Problem[];
}

const isObject = (v: JsonValue | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const allowed = (values: readonly string[]): string => values.map((v) => JSON.stringify(v)).join(', ');

function millisOf(c: MergedChannel, key: 'long_press_ms' | 'second_press_wait_ms', out: Found): number {
  const bounds = key === 'long_press_ms' ? LONG_PRESS_MS : SECOND_PRESS_WAIT_MS;
  if (!Object.hasOwn(c.value, key)) return bounds.default;
  const v = c.value[key];
  if (typeof v === 'number' && Number.isInteger(v) && v >= bounds.min && v <= bounds.max) return v;
  out.problems.push(channelKeyProblem(c, key, rule('gpio.press-ms', { min: bounds.min, max: bounds.max }), { value: v }));
  return bounds.default;
}

function bindingOf(c: MergedChannel, raw: JsonValue, index: number, gestures: readonly Gesture[], out: Found): Binding | null {
  const at = (key: string) => ['bindings', index, key] as const;
  if (!isObject(raw)) {
    out.problems.push(channelPathProblem(c, ['bindings', index], rule('gpio.bindings-list'), { value: raw }));
    return null;
  }
  let ok = true;
  const broken = (key: string, text: string, value: unknown): void => {
    out.problems.push(channelPathProblem(c, at(key), text, { value }));
    ok = false;
  };
  for (const key of Object.keys(raw)) if (!BINDING_KEYS.has(key)) broken(key, rule('gpio.binding-key'), raw[key]);
  const { gesture, output, action } = raw;
  if (!GESTURES.includes(gesture as Gesture)) broken('gesture', rule('schema.enum', { allowed: allowed(GESTURES) }), gesture);
  else if (!gestures.includes(gesture as Gesture)) broken('gesture', rule('gpio.binding-gesture-off'), gesture);
  if (typeof output !== 'string' || output === '') broken('output', rule('schema.type', { types: TYPE_WORDS.string! }), output);
  if (!BINDING_ACTIONS.includes(action as BindingAction))
    broken('action', rule('schema.enum', { allowed: allowed(BINDING_ACTIONS) }), action);
  return ok ? { gesture: gesture as Gesture, output: output as string, action: action as BindingAction } : null;
}

/**
 * The presses an input detects, or null (`press_detection` false or absent, an output, a meter).
 * Broken values are problems; the button keys of a channel that detects nothing are warnings.
 */
export function pressesOf(c: MergedChannel, kind: 'input' | 'output' | 'meter', out: Found): PressConfig | null {
  const v = c.value;
  const detect = v.press_detection;
  if (Object.hasOwn(v, 'press_detection') && typeof detect !== 'boolean') {
    out.problems.push(channelKeyProblem(c, 'press_detection', rule('schema.type', { types: TYPE_WORDS.boolean! }), { value: detect }));
    return null;
  }
  if (detect === true && kind === 'meter') {
    out.problems.push(channelKeyProblem(c, 'press_detection', rule('gpio.press-on-meter', { type: String(v.type) }), { value: true }));
    return null;
  }
  if (detect !== true || kind !== 'input') {
    const set = PRESS_KEYS.filter((k) => k !== 'press_detection' && Object.hasOwn(v, k));
    const why = kind === 'output' ? 'presses are detected on inputs only' : 'press_detection is not true';
    if (kind === 'output' && detect === true)
      out.warnings.push(channelKeyProblem(c, 'press_detection', `ignored: ${why}`, { value: true }));
    for (const key of set) out.warnings.push(channelKeyProblem(c, key, `ignored: ${why}`));
    return null;
  }
  const longPressMs = millisOf(c, 'long_press_ms', out);
  const secondPressWaitMs = millisOf(c, 'second_press_wait_ms', out);
  const gestures = gesturesOf(secondPressWaitMs);
  const bindings: Binding[] = [];
  if (Object.hasOwn(v, 'bindings')) {
    const list = v.bindings;
    if (!Array.isArray(list)) {
      out.problems.push(channelKeyProblem(c, 'bindings', rule('gpio.bindings-list'), { value: list }));
    } else {
      list.forEach((raw, i) => {
        const binding = bindingOf(c, raw, i, gestures, out);
        if (binding) bindings.push(binding);
      });
    }
  }
  return { longPressMs, secondPressWaitMs, gestures, bindings };
}

/** Each binding must name an output channel of the same configuration. */
export function bindingProblems(merged: readonly MergedChannel[], channels: readonly GpioChannelConfig[]): Problem[] {
  const byName = new Map(channels.map((ch) => [ch.name, ch]));
  const problems: Problem[] = [];
  for (const source of merged) {
    if (byName.get(source.id)?.presses == null || !Array.isArray(source.value.bindings)) continue;
    source.value.bindings.forEach((raw, index) => {
      const output = isObject(raw) ? raw.output : undefined;
      if (typeof output !== 'string' || output === '') return; // reported with the binding
      const target = byName.get(output);
      const broken =
        target === undefined
          ? rule('gpio.binding-no-channel')
          : target.direction !== 'output'
            ? rule('gpio.binding-not-output', { channel: output })
            : undefined;
      if (broken !== undefined) problems.push(channelPathProblem(source, ['bindings', index, 'output'], broken, { value: output }));
    });
  }
  return problems;
}
