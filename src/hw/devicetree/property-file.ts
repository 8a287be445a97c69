/**
 * Reading one property file of the device tree, bounded. The kernel shows properties as small
 * regular files; a tree that is not the kernel's (a copy, a test root, a hostile mount) may put
 * anything there: a FIFO that never ends, a link to /dev/zero, a file of a gigabyte. Only a
 * regular file of at most MAX_PROPERTY_BYTES is read; anything else is a malformed property (one
 * line naming it, exit 6), never a hang or an exhausted heap. The open is non-blocking, so even
 * opening a FIFO with no writer returns at once.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { CtlError, errnoOf, messageOf } from '../../core/errors.js';

/** The largest property read (the kernel's own are a few hundred bytes at most). */
export const MAX_PROPERTY_BYTES = 64 * 1024;

/** The bytes of the property file at `path`; undefined when it does not exist. */
export async function readPropertyFile(path: string): Promise<Buffer | undefined> {
  let file;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined;
    throw new CtlError('HW_IO', `cannot read ${path}: ${errnoOf(err) ?? messageOf(err)}`);
  }
  try {
    const info = await file.stat();
    if (!info.isFile()) throw new CtlError('CONFIG_INVALID', `${path}: not a regular file (a device-tree property is one)`);
    if (info.size > MAX_PROPERTY_BYTES) {
      throw new CtlError(
        'CONFIG_INVALID',
        `${path}: ${info.size} bytes, more than a device-tree property has (at most ${MAX_PROPERTY_BYTES})`,
      );
    }
    // Read one byte more than the bound: a file that grows while read is caught too.
    const buffer = Buffer.alloc(MAX_PROPERTY_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_PROPERTY_BYTES) {
        throw new CtlError('CONFIG_INVALID', `${path}: more than ${MAX_PROPERTY_BYTES} bytes, more than a device-tree property has`);
      }
    }
    return Buffer.from(buffer.subarray(0, length));
  } catch (err) {
    if (err instanceof CtlError) throw err;
    throw new CtlError('HW_IO', `cannot read ${path}: ${errnoOf(err) ?? messageOf(err)}`);
  } finally {
    await file.close();
  }
}
