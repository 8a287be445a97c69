/**
 * Merged ADC configuration → the typed model, with the checks the schema cannot express: the
 * channel name must be an IIO channel name (`voltage4`, not wb-mqtt-adc's README's `in_voltage4`),
 * `match_iio` is at most MATCH_IIO_MAX_LENGTH characters (kept out of the schema, which stays the
 * specification's), and the deprecated `readings_number` gets one warning.
 */
import type { JsonObject } from '../../core/config/jsonc.js';
import type { MergedChannel, MergedConfig } from '../../core/config/driver-config-spec.js';
import { channelKeyProblem, channelProblem, commonSettingsOf } from '../../core/config/merge-channels.js';
import type { Problem } from '../../core/config/problems.js';
import { rule } from '../../core/config/config-rules.js';
import { decimalPlacesOf } from '../../core/config/decimal-places.js';
import { MATCH_IIO_MAX_LENGTH, type AdcChannelConfig, type AdcConfig } from './adc-config-model.js';
import { facts } from './schema-module/adc-schema.js';

const defaults = facts.channelDefaults;

interface Collector {
  problems: Problem[];
  warnings: Problem[];
}

/** An IIO channel name: `voltage4`, `voltage0-voltage1`; never a path. */
const IIO_CHANNEL = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

function channelOf(c: MergedChannel, out: Collector): string | null {
  const raw = c.value.channel_number;
  if (typeof raw === 'number') return `voltage${raw}`;
  const name = raw as string;
  if (/^in_/.test(name) || /_raw$/.test(name)) {
    const hint = name.replace(/^in_/, '').replace(/_raw$/, '');
    out.problems.push(channelKeyProblem(c, 'channel_number', rule('adc.channel-affixes', { hint }), { value: name }));
    return null;
  }
  if (!IIO_CHANNEL.test(name)) {
    out.problems.push(channelKeyProblem(c, 'channel_number', rule('adc.channel-name'), { value: name }));
    return null;
  }
  return name;
}

function num(v: JsonObject, key: keyof typeof defaults): number {
  const value = v[key];
  return typeof value === 'number' ? value : defaults[key];
}

export function buildAdcModel(merged: MergedConfig): { model: AdcConfig; problems: Problem[]; warnings: Problem[] } {
  const out: Collector = { problems: [], warnings: [] };
  const channels: AdcChannelConfig[] = [];
  const deprecated: MergedChannel[] = [];
  for (const c of merged.channels) {
    const v = c.value;
    if (Object.hasOwn(v, 'readings_number')) deprecated.push(c);
    if (!Object.hasOwn(v, 'channel_number')) {
      out.warnings.push(channelProblem(c, `skipped: the board definition of "${c.id}" has no channel_number`));
      continue;
    }
    const channel = channelOf(c, out);
    if (channel === null) continue;
    if (typeof v.match_iio === 'string' && Array.from(v.match_iio).length > MATCH_IIO_MAX_LENGTH) {
      out.problems.push(
        channelKeyProblem(c, 'match_iio', rule('adc.match-iio-too-long', { limit: MATCH_IIO_MAX_LENGTH }), { value: v.match_iio }),
      );
      continue;
    }
    channels.push({
      id: c.id,
      system: c.system,
      channel,
      matchIio: typeof v.match_iio === 'string' ? v.match_iio : '',
      averagingWindow: num(v, 'averaging_window'),
      decimalPlaces: decimalPlacesOf(c, 'decimal_places', num(v, 'decimal_places'), out.warnings),
      scale: num(v, 'scale'),
      pollIntervalMs: num(v, 'poll_interval'),
      delayBetweenMeasurementsMs: num(v, 'delay_between_measurements'),
      voltageMultiplier: num(v, 'voltage_multiplier'),
      maxVoltage: typeof v.max_voltage === 'number' ? v.max_voltage : null,
      mqttType: v.mqtt_type === 'current' ? 'current' : 'voltage',
    });
  }
  if (deprecated.length > 0) {
    const ids = deprecated.map((c) => `"${c.id}"`).join(', ');
    out.warnings.push(
      channelKeyProblem(
        deprecated[0]!,
        'readings_number',
        `deprecated and ignored (channels ${ids}); use averaging_window and poll_interval`,
      ),
    );
  }
  const model: AdcConfig = { ...commonSettingsOf(merged.top, facts.rootDefaults), channels };
  return { model, ...out };
}
