/**
 * The payload of `<name>_total/on`: a finite, non-negative decimal number with an
 * optional fraction and exponent, and nothing else. The original parsed a numeric prefix with
 * strtof, so `12abc` became 12; here it is rejected, as are `0x10`,
 * `Infinity`, `-1`, ` 12` and the empty payload.
 */

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export type TotalParse = { ok: true; value: number } | { ok: false; reason: string };

export function parseTotalPayload(payload: string): TotalParse {
  if (!DECIMAL.test(payload)) {
    return { ok: false, reason: 'expected a non-negative decimal number such as 1234.5' };
  }
  const value = Number(payload);
  if (!Number.isFinite(value)) return { ok: false, reason: 'the number is too large' };
  return { ok: true, value };
}
