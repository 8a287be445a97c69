/**
 * What the simulated ADC measures while the demo runs. Supply rails the board defines by name
 * (`Vin` 24 V, `V3_3`, `V5_0`, `Vbus_*` 5 V) sit at their nominal value with a little noise;
 * every other channel (analog inputs, a current loop) drifts slowly between 15 % and 85 % of the
 * ADC range (two slow sines, periods of 1..4 minutes). The raw values are rewritten in place
 * twice a second, as a real ADC's `in_voltageN_raw` changes under a reader.
 */
import { ADC_FULL_SCALE_V, ADC_MAX_RAW, ADC_SCALE_MV, type DemoBoard, type SimulatedAdcChannel } from './demo-board.js';
import type { Activity } from './gpio-activity.js';

type Random = () => number;

/** Nominal published value of the supply rails a board names. */
const RAILS: readonly (readonly [RegExp, number])[] = [
  [/^Vin$/, 24],
  [/^V3_3$/, 3.3],
  [/^V5_0$/, 5],
  [/^Vbus_/, 5],
];

const UPDATE_MS = 500;

/** The ADC input voltage (V) of a channel at time `t` (s): a function of time, fixed at start. */
export function inputVoltageOf(ch: SimulatedAdcChannel, random: Random): (t: number) => number {
  const { id, voltageMultiplier, maxVoltage } = ch.channel;
  const top = Math.min(ADC_FULL_SCALE_V, maxVoltage ?? ADC_FULL_SCALE_V);
  const rail = RAILS.find(([re]) => re.test(id))?.[1];
  if (rail !== undefined && voltageMultiplier > 0) {
    const pin = Math.min(top * 0.98, rail / voltageMultiplier);
    return () => pin * (1 + (random() - 0.5) * 0.004);
  }
  const p1 = 60 + random() * 60;
  const p2 = 150 + random() * 90;
  const phase1 = random() * 2 * Math.PI;
  const phase2 = random() * 2 * Math.PI;
  return (t) => {
    const wave = 0.7 * Math.sin((2 * Math.PI * t) / p1 + phase1) + 0.3 * Math.sin((2 * Math.PI * t) / p2 + phase2);
    return top * (0.5 + 0.35 * wave);
  };
}

/** The raw reading of an input voltage on the simulated 12-bit ADC. */
export function rawOf(volts: number): number {
  return Math.min(ADC_MAX_RAW, Math.max(0, Math.round((volts * 1000) / ADC_SCALE_MV)));
}

/** Writes every channel's first reading now, then keeps them moving until stopped. */
export function startAnalogDrift(board: DemoBoard, random: Random = Math.random): Activity {
  const started = Date.now();
  const channels = board.analog.map((ch) => ({ ch, voltage: inputVoltageOf(ch, random) }));
  const update = (): void => {
    const t = (Date.now() - started) / 1000;
    for (const { ch, voltage } of channels) {
      try {
        board.iio.setRaw(ch.deviceIndex, ch.channel.channel, rawOf(voltage(t)));
      } catch {
        // The tree is being removed at shutdown.
      }
    }
  };
  update();
  const timer = setInterval(update, UPDATE_MS);
  return { stop: () => clearInterval(timer) };
}
