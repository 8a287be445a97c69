/**
 * Payload formatting of the Wiren Board conventions: booleans as "0"/"1", numbers in fixed
 * notation. Rounding works on the shortest decimal text of the number (what `String(x)` shows),
 * half away from zero, so 2.0005 with 3 places is "2.001" and 1.005 with 2 places is "1.01",
 * where `toFixed` would round the binary value (1.005 is 1.00499999... in binary) and give "1.00".
 */
import { MAX_DECIMAL_PLACES } from '../core/config/decimal-places.js';

/** "1" for true, "0" for false. */
export function formatBoolean(value: boolean): string {
  return value ? '1' : '0';
}

/**
 * `value` in fixed notation with exactly `decimals` fraction digits (none and no point for 0).
 * Rounds half away from zero on the shortest decimal text of `value`. Never prints exponent
 * notation (1e21 prints all its digits) and never a negative zero ("-0.00" is "0.00").
 * @throws RangeError when `value` is not finite or `decimals` is not an integer in 0..MAX_DECIMAL_PLACES (20).
 */
export function formatFixed(value: number, decimals: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot format ${value} as a fixed-point number`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMAL_PLACES) {
    throw new RangeError(`decimals must be an integer in 0..${MAX_DECIMAL_PLACES} (got ${decimals})`);
  }
  const { digits, pointAt } = shortestDecimal(Math.abs(value));
  // `units` is |value| x 10^decimals rounded: the digits we keep, plus one if the first dropped
  // digit is 5 or more (half away from zero, since we work on the magnitude).
  const keep = pointAt + decimals;
  let units: bigint;
  if (keep >= digits.length) {
    units = BigInt(digits + '0'.repeat(keep - digits.length));
  } else if (keep < 0) {
    units = 0n;
  } else {
    units = BigInt(digits.slice(0, keep) || '0');
    if (digits.charCodeAt(keep) >= 0x35 /* '5' */) units += 1n;
  }
  const sign = value < 0 && units !== 0n ? '-' : '';
  const text = units.toString().padStart(decimals + 1, '0');
  if (decimals === 0) return sign + text;
  return `${sign}${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/**
 * The shortest round-trip decimal of a non-negative finite number as significant digits without
 * leading zeros and the position of the decimal point counted from the first digit
 * (value = 0.digits x 10^pointAt). Zero has no digits.
 */
function shortestDecimal(magnitude: number): { digits: string; pointAt: number } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(magnitude));
  if (match === null) throw new RangeError(`unexpected number text ${String(magnitude)}`);
  const intPart = match[1] ?? '';
  const fracPart = match[2] ?? '';
  const exponent = Number(match[3] ?? '0');
  let digits = intPart + fracPart;
  let pointAt = intPart.length + exponent;
  const leadingZeros = /^0*/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(leadingZeros);
  pointAt -= leadingZeros;
  return { digits, pointAt };
}
