/**
 * `65535` as `65,535`, for messages. Not `toLocaleString`: its first call loads the ICU locale
 * data, ~10 ms of every start (measured), for a message that is almost never shown.
 */
export function withThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
