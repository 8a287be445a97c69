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

/** koffi and libc.so.6; `purpose` names what needs them in the error when koffi cannot load. */
export function loadLibc(purpose: string): LoadedLibc {
  if (loaded) return loaded;
  let koffi: any;
  try {
    koffi = createRequire(import.meta.url)('koffi');
  } catch (err) {
    throw new CtlError('HW_UNSUPPORTED', `${purpose} needs the koffi package, which cannot load here: ${(err as Error).message}`);
  }
  loaded = { koffi, lib: koffi.load('libc.so.6') };
  return loaded;
}
