import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cdevError, classifyErrno, errnoName } from '../../../../../src/hw/gpio/cdev/errno.js';
import { createKoffiSyscalls } from '../../../../../src/hw/gpio/cdev/ffi.js';
import { ErrnoError } from '../../../../../src/hw/gpio/cdev/syscalls.js';
import { IOCTL, SIZE } from '../../../../../src/hw/gpio/cdev/uapi.js';

test('a GPIO ioctl on a file that is no chip fails with ENOTTY read through koffi', (t) => {
  const sys = createKoffiSyscalls();
  const fd = sys.open('/dev/null');
  t.after(() => sys.close(fd));
  assert.throws(
    () => sys.ioctl(fd, IOCTL.GET_CHIPINFO, Buffer.alloc(SIZE.CHIP_INFO)),
    (e: unknown) => e instanceof ErrnoError && e.code === 'ENOTTY' && e.errno === 25,
  );
});

test('opening a missing chip fails with ENOENT, classified HW_GONE', () => {
  const sys = createKoffiSyscalls();
  let caught: unknown;
  try {
    sys.open('/dev/gpiochip-none-here');
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ErrnoError && caught.code === 'ENOENT');
  const error = cdevError(caught, 'open', '/dev/gpiochip-none-here');
  assert.equal(error.code, 'HW_GONE');
  assert.equal(error.errno, 'ENOENT');
  assert.equal(error.message, '/dev/gpiochip-none-here: no such device (ENOENT)');
});

test('non-blocking reads return null when nothing is ready, and the data once written', (t) => {
  const sys = createKoffiSyscalls();
  const fd = sys.eventfd();
  t.after(() => sys.close(fd));
  const buf = Buffer.alloc(8);
  assert.equal(sys.read(fd, buf), null);
  buf.writeBigUInt64LE(3n);
  assert.equal(sys.write(fd, buf), 8);
  const pollfd = Buffer.alloc(8);
  pollfd.writeInt32LE(fd, 0);
  pollfd.writeInt16LE(1, 4);
  assert.equal(sys.poll(pollfd, 1, 0), 1);
  assert.equal(sys.read(fd, buf), 8);
  assert.equal(buf.readBigUInt64LE(), 3n);
});

test('errno is classified by operation', () => {
  assert.equal(classifyErrno('ENOENT', 'open'), 'HW_GONE');
  assert.equal(classifyErrno('ENODEV', 'io'), 'HW_GONE');
  assert.equal(classifyErrno('ENXIO', 'open'), 'HW_GONE');
  assert.equal(classifyErrno('ENXIO', 'request'), 'HW_UNSUPPORTED');
  assert.equal(classifyErrno('EOPNOTSUPP', 'request'), 'HW_UNSUPPORTED');
  assert.equal(classifyErrno('EBUSY', 'request'), 'HW_BUSY');
  assert.equal(classifyErrno('EINVAL', 'request'), 'HW_IO');
  assert.equal(classifyErrno('EIO', 'io'), 'HW_IO');
  assert.equal(errnoName(95), 'EOPNOTSUPP');
  assert.equal(errnoName(16), 'EBUSY');
  assert.equal(errnoName(100000), 'errno 100000');
  assert.match(cdevError(new ErrnoError(25, 'ENOTTY', 'ioctl'), 'open', 'x').message, /not a GPIO character device/);
  assert.match(cdevError(new ErrnoError(25, 'ENOTTY', 'ioctl'), 'request', 'x').message, /uAPI v2 \(Linux 5\.10/);
  const e = cdevError(new ErrnoError(5, 'EIO', 'ioctl'), 'io', '/dev/gpiochip0: read lines');
  assert.equal(e.code, 'HW_IO');
  assert.equal(e.message, '/dev/gpiochip0: read lines: EIO');
});
