/**
 * The ADC board file from the device tree: each child of `/wirenboard/analog-inputs` is a channel
 * whose id is the node's name.
 *
 * - `iio-device`: phandle of the ADC. `match_iio` is the bus symlink target of the IIO device made
 *   from that node, which the service matches against the same target.
 * - `iio-channel-name`: the IIO channel (`voltage1`); default `voltage0`.
 * - `divider-r1-ohms`, `divider-r2-ohms`: the voltage divider in front of the input;
 *   `voltage_multiplier` is (r1 + r2) / r2, cut to 5 decimals as the original generator's `bc`
 *   does, so both publish the same values. Without r1 there is no divider (1).
 * - `averaging-window`, `decimal-places`: written only when the node has them, so the service's
 *   defaults (or the main config) apply otherwise.
 * - `sort-order`: channels are sorted by name, then by it (default 0).
 *
 * A link target longer than a `match_iio` may be (MATCH_IIO_MAX_LENGTH) is cut to its end, which
 * still matches it as `*<match_iio>*`.
 *
 * An ADC that no `/sys/bus/iio/devices/iio:deviceN` stands for (not probed) still gets its
 * channels, with a `match_iio` that matches no device and says why: the service reports them as
 * unreadable instead of reading another device's channel (an empty `match_iio` would mean
 * `iio:device0`).
 */
import { join } from 'node:path';
import type { BoardGenerator, GeneratedBoard } from './board-generator.js';
import { checkChannelNodeName } from './channel-node-name.js';
import { ADC_EDITOR_EDITS } from './adc-editor-schema.js';
import type { JsonObject } from '../../core/config/jsonc.js';
import { deviceTreeBase, DtNode, malformedProperty } from '../../hw/devicetree/dt-node.js';
import { iioLinksByPhandle } from '../../hw/iio/devices-by-phandle.js';
import { MATCH_IIO_MAX_LENGTH } from '../../adc/config/adc-config-model.js';

const NODE = 'wirenboard/analog-inputs';
const DEFAULT_CHANNEL = 'voltage0';
/** Decimals kept of a divider's ratio. */
const MULTIPLIER_DECIMALS = 5n;

function missing(node: DtNode, property: string, why: string): Error {
  return malformedProperty(join(node.path, property), `missing: ${why}`);
}

/** (r1 + r2) / r2 cut (not rounded) to 5 decimals, computed exactly. */
export function dividerMultiplier(r1: number, r2: number): number {
  const scale = 10n ** MULTIPLIER_DECIMALS;
  return Number(((BigInt(r1) + BigInt(r2)) * scale) / BigInt(r2)) / Number(scale);
}

async function multiplierOf(node: DtNode): Promise<number> {
  const r1 = await node.u32('divider-r1-ohms');
  if (r1 === undefined) return 1;
  const r2 = await node.u32('divider-r2-ohms');
  if (r2 === undefined) throw missing(node, 'divider-r2-ohms', 'a divider needs both divider-r1-ohms and divider-r2-ohms');
  if (r2 === 0) throw malformedProperty(join(node.path, 'divider-r2-ohms'), 'must not be 0');
  return dividerMultiplier(r1, r2);
}

async function generate(sysfsRoot: string): Promise<GeneratedBoard | null> {
  const root = new DtNode(join(deviceTreeBase(sysfsRoot), NODE));
  if (!(await root.exists())) return null;
  const links = await iioLinksByPhandle(sysfsRoot);
  const warnings: string[] = [];
  const rows: { order: number; channel: JsonObject }[] = [];
  for (const id of await root.childNames()) {
    const node = root.child(id);
    checkChannelNodeName(node.path, id);
    const phandle = await node.u32('iio-device');
    if (phandle === undefined) throw missing(node, 'iio-device', 'an analog input node needs the phandle of its ADC');
    let matchIio = links.get(phandle);
    if (matchIio === undefined) {
      matchIio = `disconnected_iio_device_phandle_${phandle}`;
      warnings.push(`${id}: no IIO device has the device-tree phandle ${phandle} (not probed?); its match_iio is "${matchIio}"`);
    } else if (Array.from(matchIio).length > MATCH_IIO_MAX_LENGTH) {
      // The service matches `*<match_iio>*`, so the end of the target still names this device,
      // and the board file stays one the schema accepts.
      matchIio = Array.from(matchIio).slice(-MATCH_IIO_MAX_LENGTH).join('');
      warnings.push(
        `${id}: its IIO device's link target is longer than a match_iio may be: its last ${MATCH_IIO_MAX_LENGTH} characters are used`,
      );
    }
    const channel: JsonObject = {
      id,
      match_iio: matchIio,
      channel_number: (await node.string('iio-channel-name')) ?? DEFAULT_CHANNEL,
      voltage_multiplier: await multiplierOf(node),
    };
    const window = await node.u32('averaging-window');
    if (window === 0) throw malformedProperty(join(node.path, 'averaging-window'), 'must be >= 1');
    if (window !== undefined) channel.averaging_window = window;
    const decimals = await node.u32('decimal-places');
    if (decimals !== undefined) channel.decimal_places = decimals;
    rows.push({ order: (await node.u32('sort-order')) ?? 0, channel });
  }
  rows.sort((a, b) => a.order - b.order); // stable: equal orders keep the name order
  const ids = rows.map((r) => r.channel.id as string);
  return {
    value: { iio_channels: rows.map((r) => r.channel) },
    channelCount: rows.length,
    editorEnums: [
      { path: ['definitions', 'reserved_id', 'enum'], names: ids },
      { path: ['definitions', 'system_channel', 'properties', 'id', 'enum'], names: ids },
    ],
    warnings,
  };
}

export const adcBoardGenerator: BoardGenerator = { node: NODE, generate, editorEdits: ADC_EDITOR_EDITS };
