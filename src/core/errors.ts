/**
 * The one error registry of ctl-mqtt. Every failure a user can cause or meet has a code here, and
 * every code maps to the process exit code the command line uses for it (docs/command-line.md).
 * Hardware errors are classified once, at the hw edge, into these codes.
 */

export type ErrorCode =
  /** Bad command-line arguments (unknown option, missing or non-numeric value). */
  | 'USAGE'
  /** The configuration file (or a board file) is missing or unreadable. */
  | 'CONFIG_READ'
  /** The configuration is not valid (commented) JSON. */
  | 'CONFIG_PARSE'
  /** The configuration breaks the schema or a semantic rule; also a TLS file whose content cannot be used. */
  | 'CONFIG_INVALID'
  /** A chip, device or file that was there is gone (unplugged module, removed chip). */
  | 'HW_GONE'
  /** A GPIO line is held by another consumer (EBUSY). */
  | 'HW_BUSY'
  /** The hardware refuses a request it cannot do (for example edge detection without IRQ). */
  | 'HW_UNSUPPORTED'
  /** Any other I/O failure talking to hardware. */
  | 'HW_IO'
  /** A failure at run time that is nobody's input mistake. */
  | 'RUNTIME';

export type ExitCode = 0 | 1 | 2 | 6;

/** Exit code of the process when an error of this code ends it. */
export const exitCodeOf: Readonly<Record<ErrorCode, ExitCode>> = Object.freeze({
  USAGE: 2,
  CONFIG_READ: 6,
  CONFIG_PARSE: 6,
  CONFIG_INVALID: 6,
  HW_GONE: 1,
  HW_BUSY: 1,
  HW_UNSUPPORTED: 1,
  HW_IO: 1,
  RUNTIME: 1,
});

export class CtlError extends Error {
  override readonly name = 'CtlError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions & { errno?: string },
  ) {
    super(message, options);
    this.errno = options?.errno;
  }
  /** The errno name (EBUSY, ENODEV, ...) when the error came from a system call. */
  readonly errno: string | undefined;
}

/**
 * A configuration error: one or more problems, each already formatted as one line
 * (`FILE:LINE:COL: json.path: rule (got VALUE)`).
 */
export class ConfigError extends CtlError {
  constructor(
    code: 'CONFIG_READ' | 'CONFIG_PARSE' | 'CONFIG_INVALID',
    readonly problems: readonly string[],
  ) {
    super(code, problems.join('\n'));
  }
}

export function isCtlError(err: unknown, code?: ErrorCode): err is CtlError {
  return err instanceof CtlError && (code === undefined || err.code === code);
}

/**
 * Any thrown value as a CtlError: a CtlError as it is; anything else as `code`, with its message
 * after `what: ` when given, and the value as its cause.
 */
export function toCtlError(err: unknown, code: ErrorCode, what?: string): CtlError {
  if (err instanceof CtlError) return err;
  return new CtlError(code, what === undefined ? messageOf(err) : `${what}: ${messageOf(err)}`, { cause: err });
}

/** Text of any thrown value, without a stack trace. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Node's errno name of a system error ('ENOENT', 'EACCES', ...), or undefined for anything else. */
export function errnoOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
