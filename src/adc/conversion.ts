/**
 * From a set of raw ADC samples to the published number. Pure functions.
 *
 *   mV at the ADC input = mean raw x scale (mV per LSB)
 *   value               = mV x voltage_multiplier / 1000      (V, or A for mqtt_type current)
 *
 * The mean keeps its fraction: averaging 10 samples of a 12-bit ADC gives more resolution than
 * one sample, and rounding it to an integer first (as wb-mqtt-adc does) throws that away.
 */

/** What a complete set of samples turns into. */
export type SetResult =
  | { readonly kind: 'value'; readonly value: number; readonly millivolts: number }
  /** Above `max_voltage` at the ADC input: the set is discarded. */
  | { readonly kind: 'overvoltage'; readonly millivolts: number; readonly limitMillivolts: number }
  /** The value does not fit in a double (e.g. voltage_multiplier 1e308): the set is discarded. */
  | { readonly kind: 'not-finite'; readonly millivolts: number };

export interface ConversionParams {
  /** mV per LSB. */
  readonly scale: number;
  readonly voltageMultiplier: number;
  /** Volts at the ADC input (before the multiplier); null = no limit. */
  readonly maxVoltage: number | null;
}

/** The ADC input voltage in mV of a mean raw reading. */
export function inputMillivolts(meanRaw: number, scale: number): number {
  return meanRaw * scale;
}

/** The published value (V or A) of an ADC input voltage in mV. */
export function channelValue(millivolts: number, voltageMultiplier: number): number {
  return (millivolts * voltageMultiplier) / 1000;
}

/**
 * Converts the sum of `count` raw samples. `max_voltage` is compared with the ADC input voltage
 * (before the multiplier); a reading exactly at the limit is still good.
 */
export function convertSet(rawSum: number, count: number, params: ConversionParams): SetResult {
  if (!(count > 0)) throw new RangeError(`a sample set needs at least one sample (got ${count})`);
  const millivolts = inputMillivolts(rawSum / count, params.scale);
  if (params.maxVoltage !== null) {
    const limitMillivolts = params.maxVoltage * 1000;
    if (millivolts > limitMillivolts) return { kind: 'overvoltage', millivolts, limitMillivolts };
  }
  const value = channelValue(millivolts, params.voltageMultiplier);
  if (!Number.isFinite(value)) return { kind: 'not-finite', millivolts };
  return { kind: 'value', value, millivolts };
}
