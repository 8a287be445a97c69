/**
 * libc through koffi: loaded from koffi's prebuilt binary, the whole of its API, without the
 * installer helpers of koffi's entry point (Node's HTTPS, TLS and zlib), which no service uses.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { loadLibc } from '../../../src/hw/libc.js';

const LIBC_MODULE = new URL('../../../src/hw/libc.js', import.meta.url).href;

test('libc calls work through the koffi that loadLibc gives', () => {
  const { koffi, lib } = loadLibc('this test');
  const getpid = lib.func('int getpid()');
  assert.equal(getpid(), process.pid);
  assert.equal(typeof koffi.errno, 'function');
  const { version } = createRequire(import.meta.url)('koffi/package.json') as { version: string };
  assert.equal(koffi.version, version, 'the binary of the installed koffi');
});

test("loading libc brings none of Node's HTTPS, TLS or zlib into the process", () => {
  const script = `
    const { loadLibc } = await import(${JSON.stringify(LIBC_MODULE)});
    loadLibc('this test');
    console.log(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (https|tls|zlib)$/.test(m))));`;
  const loaded = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[];
  assert.deepEqual(loaded, []);
});
