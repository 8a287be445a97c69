/**
 * aedes as the build bundles it (scripts/build-bundles.mjs: dist/vendor/aedes.js), not from
 * node_modules: aedes imports its own package.json with an import attribute that Node.js 18.19
 * cannot parse (`with { type: 'json' }` arrived in 18.20, with an ExperimentalWarning on 18.x);
 * the bundle has that JSON inlined, so the demo's broker starts, without a warning, on every
 * Node.js the package supports. Imported when the broker starts, not with the demo's modules.
 */
import type { Aedes } from 'aedes';
import { CtlError } from '../core/errors.js';

/** From dist/src/demo/ (where this module runs) to the bundle. */
const AEDES_BUNDLE = new URL('../../vendor/aedes.js', import.meta.url);

export async function loadAedes(): Promise<typeof Aedes> {
  try {
    return ((await import(AEDES_BUNDLE.href)) as { Aedes: typeof Aedes }).Aedes;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new CtlError('RUNTIME', `the demo's MQTT broker ${AEDES_BUNDLE.pathname} is missing: run 'npm run build'`);
    }
    throw err;
  }
}
