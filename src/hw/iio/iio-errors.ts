/**
 * File-system errors of IIO sysfs access, classified once here at the hw edge:
 * a device or attribute that is not there (any more) is HW_GONE, anything else HW_IO.
 */
import { CtlError, errnoOf } from '../../core/errors.js';

/**
 * ENOENT/ENOTDIR: the file is not there; ENODEV/ENXIO: sysfs says the device went away under an
 * open file.
 */
export function isGone(err: unknown): boolean {
  const code = errnoOf(err);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENODEV' || code === 'ENXIO';
}

/** `what: ERRNO` as a CtlError with the errno kept. */
export function iioError(what: string, err: unknown): CtlError {
  if (err instanceof CtlError) return err;
  const errno = errnoOf(err);
  return new CtlError(isGone(err) ? 'HW_GONE' : 'HW_IO', `${what}: ${errno ?? (err instanceof Error ? err.message : String(err))}`, {
    cause: err,
    ...(errno ? { errno } : {}),
  });
}
