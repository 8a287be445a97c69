/**
 * What the three command-line parsers share (the services' src/cli/args.ts, the console's and the
 * demo's): a mistake is a CtlError USAGE (exit 2, one line), and a port is 1..65535 in decimal.
 */
import { CtlError } from './errors.js';

export function usageError(message: string): CtlError {
  return new CtlError('USAGE', message);
}

/** The port a value names (decimal, 1..65535), or undefined; each parser words its own message. */
export function portNumber(text: string | undefined): number | undefined {
  const n = /^[0-9]{1,5}$/.test(text ?? '') ? Number(text) : NaN;
  return n >= 1 && n <= 65535 ? n : undefined;
}
