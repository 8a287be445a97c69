/**
 * The GPIO board file from the device tree: each child of `/wirenboard/gpios` is a channel named
 * after the node. Its `io-gpios` property is a GPIO specifier: the chip's phandle, the line and
 * the flags. How the line is written depends on the chip's binding, given by `gpio-xlate-type`:
 * `offset` (the default: phandle, offset, flags) or `bank_pin` (phandle, bank, pin in the bank,
 * flags; 32 lines a bank). Bit 0 of the flags is the kernel's active-low flag: the channel is
 * `inverted`. A node with `input` is an input, any other an output, driven high at start when
 * it has `output-high`. Channels are sorted by name, then by `sort-order` (default 0).
 *
 * A chip that no `/sys/bus/gpio/devices/gpiochipN` stands for (not probed) still gets its
 * channels, on a chip path that names the problem (`disconnected_gpiochip_1`, one per line so
 * they never collide): the service then reports them as unreadable instead of losing them.
 */
import { join } from 'node:path';
import type { BoardGenerator, GeneratedBoard } from './board-generator.js';
import { checkChannelNodeName } from './channel-node-name.js';
import { GPIO_EDITOR_EDITS } from './gpio-editor-schema.js';
import type { JsonObject } from '../../core/config/jsonc.js';
import { deviceTreeBase, DtNode, malformedProperty } from '../../hw/devicetree/dt-node.js';
import { gpioChipsByPhandle } from '../../hw/gpio/chips-by-phandle.js';

const NODE = 'wirenboard/gpios';
/** GPIO_ACTIVE_LOW of the kernel's dt-bindings/gpio/gpio.h. */
const ACTIVE_LOW = 1;
const LINES_PER_BANK = 32;

interface Specifier {
  phandle: number;
  offset: number;
  flags: number;
}

/** The GPIO specifier of a channel node, read as its chip's binding says. */
async function specifierOf(node: DtNode): Promise<Specifier> {
  const xlate = (await node.string('gpio-xlate-type')) ?? 'offset';
  if (xlate === 'offset') {
    const cells = await node.cells('io-gpios', 3);
    if (cells) return { phandle: cells[0]!, offset: cells[1]!, flags: cells[2]! };
  } else if (xlate === 'bank_pin') {
    const cells = await node.cells('io-gpios', 4);
    if (cells) return { phandle: cells[0]!, offset: cells[1]! * LINES_PER_BANK + cells[2]!, flags: cells[3]! };
  } else {
    throw malformedProperty(join(node.path, 'gpio-xlate-type'), `unknown value "${xlate}": expected offset or bank_pin`);
  }
  throw malformedProperty(join(node.path, 'io-gpios'), 'missing: a GPIO channel node needs io-gpios');
}

async function generate(sysfsRoot: string): Promise<GeneratedBoard | null> {
  const root = new DtNode(join(deviceTreeBase(sysfsRoot), NODE));
  if (!(await root.exists())) return null;
  const chips = await gpioChipsByPhandle(sysfsRoot);
  const warnings: string[] = [];
  const rows: { order: number; input: boolean; channel: JsonObject }[] = [];
  let disconnected = 0;
  for (const name of await root.childNames()) {
    const node = root.child(name);
    checkChannelNodeName(node.path, name);
    const spec = await specifierOf(node);
    let chip = chips.get(spec.phandle);
    if (chip === undefined) {
      chip = `disconnected_gpiochip_${++disconnected}`;
      warnings.push(`${name}: no GPIO chip has the device-tree phandle ${spec.phandle} (not probed?); its chip is "${chip}"`);
    }
    const input = await node.has('input');
    const channel: JsonObject = {
      name,
      gpio: { chip, offset: spec.offset },
      direction: input ? 'input' : 'output',
      inverted: (spec.flags & ACTIVE_LOW) !== 0,
    };
    if (!input) channel.initial_state = await node.has('output-high');
    rows.push({ order: (await node.u32('sort-order')) ?? 0, input, channel });
  }
  rows.sort((a, b) => a.order - b.order); // stable: equal orders keep the name order
  const names = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).map((r) => r.channel.name as string);
  return {
    value: { channels: rows.map((r) => r.channel) },
    channelCount: rows.length,
    editorEnums: [
      { path: ['definitions', 'reserved_name', 'enum'], names: names(() => true) },
      { path: ['definitions', 'system_input', 'properties', 'name', 'enum'], names: names((r) => r.input) },
      { path: ['definitions', 'system_output', 'properties', 'name', 'enum'], names: names((r) => !r.input) },
    ],
    warnings,
  };
}

export const gpioBoardGenerator: BoardGenerator = { node: NODE, generate, editorEdits: GPIO_EDITOR_EDITS };
