/**
 * The web console as the demo serves it: on 127.0.0.1 without a password, showing the embedded
 * broker's devices, with forms for the demo's copies of the example configs. `-j` / `-J` run the
 * built services with the example boards; "apply" reloads the demo's service process with SIGHUP
 * (the packaged console runs `systemctl reload-or-restart`, which does the same through the unit).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConsole, type RunningConsole } from '../console/console-app.js';
import { serviceFromSchema } from '../console/config/service-definitions.js';
import { CtlError } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { SERVICE_FILES, type ServiceKind } from './demo-paths.js';
import { demoConfigFile, type DemoServices } from './demo-services.js';

const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

export async function startDemoConsole(options: {
  port: number;
  brokerUrl: string;
  dir: string;
  services: DemoServices;
  onLine: (line: string) => void;
  /** Tests of the login run the same console with a password. */
  passwordHash?: string | null;
  /** Tests behind a reverse proxy name it. */
  trustedProxies?: readonly string[];
}): Promise<RunningConsole> {
  const services = (['gpio', 'adc'] as const).map((kind: ServiceKind) => {
    const files = SERVICE_FILES[kind];
    const config = demoConfigFile(kind, options.dir);
    const command = (flag: string): string[] => [process.execPath, files.entry, '-c', config, '--system-config-dir', files.boardDir, flag];
    return serviceFromSchema(`${SCHEMAS_DIR}${files.binary}.schema.json`, {
      configFile: config,
      toJSON: command('-j'),
      fromJSON: command('-J'),
      listHardware: [
        process.execPath,
        files.entry,
        kind === 'gpio' ? '--list-lines' : '--list-channels',
        ...options.services.backendArgs(kind),
      ],
      apply: () => options.services.apply(kind),
    });
  });
  return await startConsole({
    host: '127.0.0.1',
    port: options.port,
    passwordHash: options.passwordHash ?? null,
    ...(options.trustedProxies === undefined ? {} : { trustedProxies: options.trustedProxies }),
    broker: { url: options.brokerUrl },
    topicPrefix: '',
    services,
    stateDir: join(options.dir, 'console'),
    log: createLogger({ namespace: 'console', write: (line) => options.onLine(`console: ${line}`) }),
  }).catch((err: unknown) => {
    if (err instanceof CtlError) throw new CtlError(err.code, `web console: ${err.message} (--console-port N picks another port)`);
    throw err;
  });
}
