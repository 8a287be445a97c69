/**
 * Where the demo finds the repository's parts: the example configs and board directories it
 * runs the services with, and the services' entry points (all relative to the package root,
 * seen from dist/src/demo/).
 */
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type ServiceKind = 'gpio' | 'adc';

export interface ServiceFiles {
  /** `ctl-mqtt-gpio`, `ctl-mqtt-adc`. */
  readonly binary: string;
  /** The command run with node: its bundle, as the package installs it. */
  readonly entry: string;
  /** `-c`: the example main config. */
  readonly config: string;
  /** `--system-config-dir`: the example board. */
  readonly boardDir: string;
  /** The MQTT device id the service publishes (its default). */
  readonly deviceId: string;
}

function filesOf(kind: ServiceKind): ServiceFiles {
  const binary = `ctl-mqtt-${kind}`;
  return {
    binary,
    entry: `${PACKAGE_ROOT}dist/bin/${binary}.js`,
    config: `${PACKAGE_ROOT}examples/${binary}.conf`,
    boardDir: `${PACKAGE_ROOT}examples/board/${binary}/conf.d`,
    deviceId: `ctl-${kind}`,
  };
}

export const SERVICE_FILES: Readonly<Record<ServiceKind, ServiceFiles>> = Object.freeze({
  gpio: filesOf('gpio'),
  adc: filesOf('adc'),
});
