/**
 * How a running service gets its configuration again on a reload: the same files, the same
 * checks and the same reporting as at start-up.
 */
import type { ServiceParts } from './lifecycle.js';

/** Returns the new model, or undefined when the configuration is invalid (its problems already reported). */
export type ConfigReloader<Model> = () => Model | undefined;

/** The lifecycle's reload: read the configuration again and, when it is valid, `apply` it. */
export function reloadWith<Model>(
  reloader: ConfigReloader<Model> | undefined,
  apply: (next: Model) => Promise<void>,
): Pick<ServiceParts, 'reload'> {
  if (reloader === undefined) return {};
  return {
    async reload() {
      const next = reloader();
      if (next === undefined) return false;
      await apply(next);
      return true;
    },
  };
}
