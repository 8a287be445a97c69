/**
 * aedes, imported when the demo's broker starts rather than with the demo's modules, so that the
 * filter of json-module-warning.ts is in place before aedes imports its package.json. Node.js
 * 18.19 cannot parse that import (`with { type: 'json' }` arrived in 18.20): one line says so.
 */
import type { Aedes } from 'aedes';
import { CtlError } from '../core/errors.js';
import { dropJsonModuleWarning } from './json-module-warning.js';

export async function loadAedes(): Promise<typeof Aedes> {
  dropJsonModuleWarning();
  try {
    return (await import('aedes')).Aedes;
  } catch (err) {
    if (err instanceof SyntaxError) {
      throw new CtlError('RUNTIME', `the demo's embedded MQTT broker (aedes) needs Node.js >= 18.20; this is ${process.version}`);
    }
    throw err;
  }
}
