/**
 * What the console knows about a control from its type in the Wiren Board conventions, written
 * once for the server and the page: the build copies this module's compiled file into the web
 * directory (`/assets/control-rules.js`), so the devices page checks a value with the same rule
 * the server applies before it publishes, and groups the controls as the charts count them. It
 * imports nothing: the browser loads it as it is.
 */

/** Control types whose value is a running total (consumption is its increase). */
export const METER_TYPES: ReadonlySet<string> = new Set(['power_consumption', 'water_consumption', 'heat_energy', 'gas_consumption']);
/** The rates a meter publishes beside its total (`A1_IN_current`). */
const METER_RATE_TYPES: ReadonlySet<string> = new Set(['power', 'water_flow', 'heat_power', 'gas_flow']);
/** Types whose payload is not a measured number (never charted). */
export const NOT_NUMERIC_TYPES: ReadonlySet<string> = new Set(['switch', 'pushbutton', 'text', 'rgb', 'alarm']);

export type ControlKind = 'switch' | 'pushbutton' | 'text' | 'number';

/** How a control is shown and what it takes: a switch, a button, a line of text, else a number. */
export function controlKind(type: string): ControlKind {
  if (type === 'switch' || type === 'pushbutton' || type === 'text') return type;
  return 'number';
}

/** Plain decimal notation, as the drivers take a number on `/on`. */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Why a text is not a number a control of `type` takes: `number` (not one), `negative` (a meter reading below 0). */
export type NumberProblem = 'number' | 'negative';

export function numberProblem(type: string, text: string): NumberProblem | undefined {
  if (!DECIMAL.test(text) || !Number.isFinite(Number(text))) return 'number';
  if (METER_TYPES.has(type) && Number(text) < 0) return 'negative';
  return undefined;
}

/**
 * A number as a person types it, in the notation `/on` takes: spaces between digit groups
 * dropped (`1 234`), one decimal comma read as the point (`12,5`). Anything else is left as it
 * is, for numberProblem to refuse.
 */
export function typedNumber(text: string): string {
  const compact = text.trim().replace(/(\d)[\s\u00a0\u202f]+(?=\d)/g, '$1');
  return /^-?\d*,\d*$/.test(compact) && compact !== ',' ? compact.replace(',', '.') : compact;
}

/** The groups of the devices page, in the order they are shown. */
export const CONTROL_GROUPS = ['inputs', 'outputs', 'meters', 'analog', 'other'] as const;
export type ControlGroup = (typeof CONTROL_GROUPS)[number];

interface GroupedControl {
  readonly name: string;
  readonly type: string;
  readonly readonly: boolean;
}

/**
 * Each control's group: a meter's total and rate are `meters`; a read-only switch (and what an
 * input publishes beside it, such as its press counters `IN1 Single Press Counter`) `inputs`;
 * what a person can set `outputs`; other read-only numbers `analog`; text `other`.
 */
export function controlGroups(controls: readonly GroupedControl[]): Map<string, ControlGroup> {
  const inputs = controls.filter((c) => c.readonly && (c.type === 'switch' || c.type === 'alarm')).map((c) => c.name);
  const groups = new Map<string, ControlGroup>();
  for (const c of controls) groups.set(c.name, groupOf(c, inputs));
  return groups;
}

function groupOf(c: GroupedControl, inputs: readonly string[]): ControlGroup {
  if (METER_TYPES.has(c.type) || METER_RATE_TYPES.has(c.type)) return 'meters';
  if (inputs.some((name) => c.name === name || c.name.startsWith(`${name} `) || c.name.startsWith(`${name}_`))) return 'inputs';
  if (c.type === 'text') return 'other';
  if (!c.readonly) return 'outputs';
  return NOT_NUMERIC_TYPES.has(c.type) ? 'other' : 'analog';
}

/**
 * A title of the meta (a string, or texts by language `{en, ru}`) in `language`, else in
 * English, else any; '' when there is none.
 */
export function titleIn(title: unknown, language: string): string {
  if (typeof title === 'string') return title;
  if (title === null || typeof title !== 'object') return '';
  const texts = title as Record<string, unknown>;
  for (const key of [language, 'en', ...Object.keys(texts)]) if (typeof texts[key] === 'string' && texts[key] !== '') return texts[key];
  return '';
}
