/**
 * Which services the host runs and with what: the sections of its command line, and with
 * `--defaults DIR` what the separate units would read from DIR (their EnvironmentFile=).
 */
import { join } from 'node:path';
import type { ServiceEnv } from '../../service/hosted-process.js';
import { readEnvFile, wordsOf } from './env-file.js';
import { SERVICE_BINARY, SERVICE_KINDS, type HostSection, type ServiceKind } from './host-args.js';
import type { ServicePlan } from './hosted-service.js';

export interface Plans {
  readonly plans: readonly ServicePlan[];
  /** Lines to log: lines of the defaults files systemd would ignore too, unknown service names. */
  readonly problems: readonly string[];
}

/**
 * The services CTL_MQTT_SERVICES names (default all three), in their usual order: from the
 * environment (the unit's EnvironmentFile=/etc/default/ctl-mqtt, or a drop-in), else from
 * DIR/ctl-mqtt itself (the host run by hand).
 */
function defaultKinds(defaultsDir: string, processEnv: ServiceEnv, problems: string[]): ServiceKind[] {
  let listed = processEnv['CTL_MQTT_SERVICES'];
  if (listed === undefined) {
    const file = readEnvFile(join(defaultsDir, 'ctl-mqtt'));
    problems.push(...file.problems);
    listed = file.vars.get('CTL_MQTT_SERVICES');
  }
  if (listed === undefined) return [...SERVICE_KINDS];
  const words = wordsOf(listed).map((w) => w.replace(/^ctl-mqtt-/, ''));
  for (const word of words) {
    if (!(SERVICE_KINDS as readonly string[]).includes(word)) {
      problems.push(
        `${join(defaultsDir, 'ctl-mqtt')}: CTL_MQTT_SERVICES: no service ${JSON.stringify(word)} (gpio, adc, console); ignored`,
      );
    }
  }
  return SERVICE_KINDS.filter((k) => words.includes(k));
}

export function plansOf(sections: readonly HostSection[], defaultsDir: string | null, processEnv: ServiceEnv): Plans {
  const problems: string[] = [];
  if (defaultsDir === null) return { plans: sections.map((s) => ({ kind: s.kind, argv: [...s.argv], env: processEnv })), problems };
  const given = sections.length > 0 ? sections : defaultKinds(defaultsDir, processEnv, problems).map((kind) => ({ kind, argv: [] }));
  const plans = given.map((section): ServicePlan => {
    const file = readEnvFile(join(defaultsDir, SERVICE_BINARY[section.kind]));
    problems.push(...file.problems);
    const env: Record<string, string | undefined> = { ...processEnv, ...ownStateDirectory(processEnv, section.kind) };
    for (const [key, value] of file.vars) if (key !== 'CTL_MQTT_OPTS') env[key] = value;
    return { kind: section.kind, argv: [...section.argv, ...wordsOf(file.vars.get('CTL_MQTT_OPTS'))], env };
  });
  return { plans, problems };
}

/**
 * systemd gives one process of several StateDirectory= entries all of them, `:`-separated; each
 * service gets its own (/var/lib/ctl-mqtt-<service>), as its own unit would give it.
 */
function ownStateDirectory(processEnv: ServiceEnv, kind: ServiceKind): { STATE_DIRECTORY?: string } {
  const all = processEnv['STATE_DIRECTORY']?.split(':') ?? [];
  const own = all.find((dir) => dir.replace(/\/+$/, '').endsWith(`/${SERVICE_BINARY[kind]}`));
  return own === undefined ? {} : { STATE_DIRECTORY: own };
}
