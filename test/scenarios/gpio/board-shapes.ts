/**
 * Board definitions and configs in the shapes real controllers carry (written for these tests,
 * on the lines of a test board): what the service must run unchanged.
 *
 * - `boardFileShape`: a board file as controllers of the chip/offset era ship it: outputs
 *   (`A1_OUT`.., `V_OUT`) leave `direction` out, inputs say `"direction": "input"` and are
 *   inverted, one reserved input (`A3_IN`) leaves it out too, custom inputs of the board itself
 *   (`R1_IN`, `BATTERY_PRESENT`), a 5 V output that starts on, keys the service does not know
 *   (`title`), a `//` comment and a trailing comma.
 * - `singleConfigShape`: the single `/etc` config of an older controller: the same reserved names
 *   with their own deprecated integer `gpio` numbers, `device_name`, tabs, a trailing comma, and
 *   an empty board directory.
 */

/** Where a channel of a shape sits and how it behaves. */
export interface ShapeLine {
  readonly name: string;
  readonly chip: number;
  readonly offset: number;
  readonly direction: 'input' | 'output';
  readonly inverted: boolean;
  /** The value an output publishes at start. */
  readonly startValue?: '0' | '1';
}

/** The channels of both shapes, on a board of two chips (8 and 16 lines). */
export const SHAPE_LINES: readonly ShapeLine[] = [
  { name: 'A1_OUT', chip: 0, offset: 0, direction: 'output', inverted: false, startValue: '0' },
  { name: 'A2_OUT', chip: 0, offset: 1, direction: 'output', inverted: false, startValue: '0' },
  { name: 'A3_OUT', chip: 0, offset: 2, direction: 'output', inverted: false, startValue: '0' },
  { name: 'A4_OUT', chip: 0, offset: 3, direction: 'output', inverted: false, startValue: '0' },
  { name: 'A1_IN', chip: 0, offset: 4, direction: 'input', inverted: true },
  { name: 'A2_IN', chip: 0, offset: 5, direction: 'input', inverted: true },
  { name: 'A3_IN', chip: 1, offset: 0, direction: 'input', inverted: true },
  { name: 'R1_IN', chip: 1, offset: 1, direction: 'input', inverted: true },
  { name: '5V_OUT', chip: 1, offset: 2, direction: 'output', inverted: false, startValue: '1' },
  { name: 'V_OUT', chip: 1, offset: 3, direction: 'output', inverted: false, startValue: '0' },
  { name: 'BATTERY_PRESENT', chip: 1, offset: 4, direction: 'input', inverted: false },
];

/** The `gpio` value of a line: `{chip, offset}` or a global number. */
export type GpioOf = (chip: number, offset: number) => unknown;

function json(value: unknown): string {
  return JSON.stringify(value);
}

/** The board file (`conf.d/system.conf`) of the chip/offset shape. */
export function boardFileShape(gpio: GpioOf): string {
  const g = (name: string) => {
    const line = SHAPE_LINES.find((l) => l.name === name)!;
    return json(gpio(line.chip, line.offset));
  };
  return `// Configuration options
{
    "device_name" : "Discrete I/O",

    "channels" : [
        { "gpio" : ${g('A1_OUT')}, "name" : "A1_OUT", "inverted" : false },
        { "gpio" : ${g('A2_OUT')}, "name" : "A2_OUT", "inverted" : false },
        { "gpio" : ${g('A3_OUT')}, "name" : "A3_OUT", "inverted" : false },
        { "gpio" : ${g('A4_OUT')}, "name" : "A4_OUT", "inverted" : false },
        { "gpio" : ${g('A1_IN')}, "name" : "A1_IN", "inverted" : true, "direction" : "input" },
        { "gpio" : ${g('A2_IN')}, "name" : "A2_IN", "inverted" : true, "direction" : "input" },
        { "gpio" : ${g('A3_IN')}, "name" : "A3_IN", "inverted" : true },
        { "gpio" : ${g('R1_IN')}, "name" : "R1_IN", "inverted" : true, "direction" : "input" },
        { "gpio" : ${g('5V_OUT')}, "name" : "5V_OUT", "direction" : "output", "initial_state" : true },
        { "gpio" : ${g('V_OUT')}, "name" : "V_OUT" },
        { "gpio" : ${g('BATTERY_PRESENT')}, "name" : "BATTERY_PRESENT", "direction" : "input", "title" : "Battery" },
    ]
}
`;
}

/** The main config that goes with the board file: the user's settings only. */
export function mainConfigOverBoard(deviceName: string): string {
  return `{
    "device_name" : ${json(deviceName)},
    "channels" : [
        { "name" : "A2_OUT", "load_previous_state" : false }
    ]
}
`;
}

/** An older controller's whole board as its single main config (the board directory empty). */
export function singleConfigShape(deviceName: string, gpio: GpioOf): string {
  const items = SHAPE_LINES.map((l) => {
    const keys = [`"gpio" : ${json(gpio(l.chip, l.offset))}`, `"name" : ${json(l.name)}`];
    // Outputs as those files write them: reserved ones without direction, the 5 V one with it.
    if (l.direction === 'input' && l.name !== 'A3_IN') keys.push('"direction": "input"');
    if (l.name === '5V_OUT') keys.push('"direction": "output"', '"initial_state" : true');
    keys.push(`"inverted" : ${l.inverted}`);
    return `\t\t{\n            ${keys.join(',\n            ')}\n        }`;
  });
  return `// Configuration options
{
    "device_name" : ${json(deviceName)},

    "channels" : [
${items.join(',\n')},
    ]
}
`;
}
