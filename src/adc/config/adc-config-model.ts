/**
 * The ADC driver's configuration as the runtime sees it: typed, defaults applied, board system
 * channels merged in, deep-frozen. The runtime never reads the raw JSON.
 */

/**
 * The longest `match_iio` (characters), checked with the model (build-adc-model.ts) and kept by
 * what writes one (the board generator). A pattern is a part of a device path; far longer is a
 * mistake or an attack on the matcher, which works through pattern × path steps.
 */
export const MATCH_IIO_MAX_LENGTH = 256;

export interface AdcChannelConfig {
  /** The MQTT control id (one topic level). */
  readonly id: string;
  /** Defined by a board file (a system channel). */
  readonly system: boolean;
  /** IIO channel name, e.g. `voltage3` (reads `in_voltage3_raw`); integer N is `voltageN`. */
  readonly channel: string;
  /** fnmatch pattern for the `iio:deviceN` symlink target; '' = `iio:device0`. */
  readonly matchIio: string;
  /** Samples per published value (>= 1). */
  readonly averagingWindow: number;
  /** Decimal places of the published value (0..20: core/config/decimal-places.ts). */
  readonly decimalPlaces: number;
  /** Wanted ADC scale; 0 = the largest available. */
  readonly scale: number;
  /** Period of a publication cycle (ms, >= 1). */
  readonly pollIntervalMs: number;
  /** Spacing of the samples of one cycle (ms, >= 1). */
  readonly delayBetweenMeasurementsMs: number;
  /** Final factor applied to the ADC voltage. */
  readonly voltageMultiplier: number;
  /** Overvoltage threshold in volts at the ADC input (before the multiplier); null = none. */
  readonly maxVoltage: number | null;
  readonly mqttType: 'voltage' | 'current';
}

export interface AdcConfig {
  readonly deviceName: string;
  readonly debug: boolean;
  /** Seconds (>= 5) after which an unchanged value is published again. */
  readonly maxUnchangedInterval: number;
  /** Board channels first (board order), then the main config's channels in file order. */
  readonly channels: readonly AdcChannelConfig[];
}
