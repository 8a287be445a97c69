/**
 * What the shared configuration machinery (loading, board merge, editor conversions) needs to
 * know about a driver's configuration. Each driver describes itself with one of these; core never
 * imports a driver.
 */

export interface ConfigFamily {
  /** The binary, e.g. `ctl-mqtt-gpio`. */
  readonly binary: string;
  /** `channels` or `iio_channels`. */
  readonly channelsKey: string;
  /** `name` or `id`: the key channels are merged on and published under. */
  readonly idKey: string;
  /** The reserved (system) names of the schema. */
  readonly reservedNames: ReadonlySet<string>;
  /** Keys of a system channel that only the board may set. */
  readonly protectedKeys: readonly string[];
  /**
   * Keys of a system channel that a board file may give a value and the user may change (ADC
   * `decimal_places`, GPIO `initial_state`): the editor shows the board's value, and `-J` keeps a
   * value only where it differs from the board's (even when it is the schema default).
   */
  readonly boardValueKeys: readonly string[];
  /**
   * The key that gives a channel its hardware (`gpio`, `channel_number`): a reserved name the
   * board does not define but the main config gives this key is used with it.
   */
  readonly hardwareKey: string;
  /**
   * A reserved name of the system variant a board channel belongs to (a system input or output,
   * an ADC system channel). The board decides which channels are system channels, whatever their
   * names; the validators, generated at build time, know only the reserved names, so a board
   * channel named in the main config is validated under this name instead.
   */
  systemStandIn(boardChannel: Readonly<Record<string, unknown>>): string;
  /** Every control id a channel of this name, written as `item`, may publish (its topics must fit MQTT). */
  controlIds(name: string, item: Readonly<Record<string, unknown>>): readonly string[];
}
