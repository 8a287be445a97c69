/**
 * The one place where errno values become CtlError codes (errors are classified once, at the hw edge).
 * The same errno means different things depending on the operation: ENXIO when opening a chip
 * means the device is gone, ENXIO when requesting edge detection means the chip has no interrupt.
 */
import { constants } from 'node:os';
import { CtlError, toCtlError, type ErrorCode } from '../../../core/errors.js';
import { ErrnoError } from './syscalls.js';

/** What the failed call was doing. */
export type GpioOperation = 'open' | 'request' | 'io';

const NAME_BY_NUMBER = new Map<number, string>();
for (const [name, value] of Object.entries(constants.errno)) {
  if (!NAME_BY_NUMBER.has(value)) NAME_BY_NUMBER.set(value, name);
}
// Linux aliases ENOTSUP to EOPNOTSUPP; the kernel code and its docs say EOPNOTSUPP.
NAME_BY_NUMBER.set(constants.errno.EOPNOTSUPP, 'EOPNOTSUPP');

/** The symbolic name of an errno value (EBUSY), or `errno N` when unknown. */
export function errnoName(errno: number): string {
  return NAME_BY_NUMBER.get(errno) ?? `errno ${errno}`;
}

/** Maps an errno name to an error code for an operation. */
export function classifyErrno(code: string, op: GpioOperation): ErrorCode {
  switch (code) {
    case 'ENOENT':
    case 'ENODEV':
      return 'HW_GONE';
    case 'ENXIO':
      return op === 'request' ? 'HW_UNSUPPORTED' : 'HW_GONE';
    case 'EBUSY':
      return 'HW_BUSY';
    case 'EOPNOTSUPP':
    case 'ENOTSUP':
      return 'HW_UNSUPPORTED';
    default:
      return 'HW_IO';
  }
}

/**
 * The CtlError of a failed call of the character device: its message starts with `what` (for
 * example `/dev/gpiochip0: request lines 3, 4`) and, for a system call, ends with the errno name,
 * its code classified for `op`. CtlErrors pass through; anything else is HW_IO (core's toCtlError).
 */
export function cdevError(err: unknown, op: GpioOperation, what: string): CtlError {
  if (err instanceof ErrnoError) {
    return new CtlError(classifyErrno(err.code, op), `${what}: ${describe(err.code, op)}`, {
      cause: err,
      errno: err.code,
    });
  }
  return toCtlError(err, 'HW_IO', what);
}

const TEXT: Record<string, string> = {
  ENOENT: 'no such device (ENOENT)',
  ENODEV: 'the device is gone (ENODEV)',
  ENXIO: 'no such device or address (ENXIO)',
  EBUSY: 'busy (EBUSY)',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'operation not permitted (EPERM)',
  EINVAL: 'invalid argument (EINVAL)',
  EOPNOTSUPP: 'not supported by the hardware (EOPNOTSUPP)',
  ENOTTY: 'not a GPIO character device (ENOTTY)',
};

function describe(code: string, op: GpioOperation): string {
  // A chip that answered the (v1) chip info ioctl but not a v2 one runs a kernel before 5.10.
  if (code === 'ENOTTY' && op !== 'open') return 'this kernel lacks the GPIO uAPI v2 (Linux 5.10 or later is needed) (ENOTTY)';
  return TEXT[code] ?? code;
}
