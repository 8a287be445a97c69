/**
 * libc through koffi, the one FFI the project ships (no compiler on install). Loaded on first use,
 * so a process that needs none of it (the ADC service outside systemd, the sim backend) never
 * loads koffi. Untyped values (`any`) stay inside the files that declare libc's functions.
 */
import { createRequire } from 'node:module';
import { CtlError } from '../core/errors.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface LoadedLibc {
  readonly koffi: any;
  readonly lib: any;
}

let loaded: LoadedLibc | undefined;

const requireModule = createRequire(import.meta.url);

/**
 * koffi's prebuilt binary for this platform, loaded directly. koffi's own entry point finds the
 * same file, but first loads its installer's helpers, which bring Node's HTTPS, TLS and zlib into
 * the process (~0.3 MiB of every service's memory, measured on the whole controller) for a
 * download it never makes at run time. The binary is the whole API; the entry point adds only
 * deprecated aliases. Undefined when there is no such binary (another ABI, musl): koffi's entry
 * point then decides, as before.
 */
function prebuiltKoffi(): any {
  const arch = process.arch === 'arm' ? 'armhf' : process.arch; // Debian's and the controllers' 32-bit ARM
  try {
    const binary = requireModule(`koffi/build/koffi/${process.platform}_${arch}/koffi.node`);
    const { version } = requireModule('koffi/package.json') as { version: string };
    return binary.version === version ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** koffi and libc.so.6; `purpose` names what needs them in the error when koffi cannot load. */
export function loadLibc(purpose: string): LoadedLibc {
  if (loaded) return loaded;
  let koffi: any;
  try {
    koffi = prebuiltKoffi() ?? requireModule('koffi');
  } catch (err) {
    throw new CtlError('HW_UNSUPPORTED', `${purpose} needs the koffi package, which cannot load here: ${(err as Error).message}`);
  }
  loaded = { koffi, lib: koffi.load('libc.so.6') };
  return loaded;
}
