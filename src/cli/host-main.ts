#!/usr/bin/env -S node --v8-pool-size=1 --max-semi-space-size=1 --no-opt
/**
 * The `ctl-mqtt` binary: the controller's services in one process (cli/host/). Exit codes as the
 * services': 0 stopped, 1 runtime failure, 2 bad arguments, 6 invalid configuration (of the last
 * service to end when none is left running).
 */
import { holdEarlyStops, releaseEarlyStops, takeEarlyReloads } from '../service/early-signals.js';
import { CtlError, messageOf } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { systemTime } from '../core/time.js';
import { serviceManagerOf } from '../service/service-manager.js';
import { packageVersion } from '../service/package-version.js';
import { isMainModule } from '../service/is-main.js';
import { openNotifySocket } from '../hw/systemd/notify-socket.js';
import { parseCliArgs } from './args.js';
import type { CliIo } from './cli-io.js';
import { HOST_BINARY, HOST_USAGE, parseHostArgs, type HostArgs, type ServiceKind } from './host/host-args.js';
import { Host } from './host/host.js';
import { configFilesOf, type ServiceMain, type ServicePlan } from './host/hosted-service.js';
import { plansOf } from './host/service-plans.js';
import { serviceStderr } from './host/journal-lines.js';
import { runProcess } from './process-entry.js';

/** Each service's code is loaded only when that service is to run. */
async function loadMain(kind: ServiceKind): Promise<ServiceMain> {
  switch (kind) {
    case 'gpio':
      return (await import('./gpio-main.js')).main;
    case 'adc':
      return (await import('./adc-main.js')).main;
    case 'console':
      return (await import('./console-main.js')).main;
  }
}

/** The files a reload of the service reads: its config file, board files and the broker's TLS files. */
function configFiles(plan: ServicePlan): readonly string[] {
  if (plan.kind === 'console') return [];
  try {
    const cli = parseCliArgs(plan.kind, plan.argv);
    const { tlsCa, tlsCert, tlsKey } = cli.broker;
    const tls = [tlsCa, tlsCert, tlsKey].filter((f): f is string => f !== null);
    return [...configFilesOf(cli.configFile, cli.systemConfigDir), ...tls];
  } catch {
    return []; // bad options: the service says so itself when it starts
  }
}

/** The units' `--generate-board` step, before each start of the GPIO and ADC services. */
async function generateBoard(plan: ServicePlan, main: ServiceMain, io: CliIo): Promise<number> {
  if (plan.kind === 'console') return 0;
  return main([...plan.argv, '--generate-board'], io, new AbortController().signal);
}

/** Runs the host with these arguments until it is stopped; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let args: HostArgs;
  try {
    args = parseHostArgs(argv);
  } catch (err) {
    if (err instanceof CtlError) {
      io.stderr.write(`${HOST_BINARY}: ${err.message}\nTry '${HOST_BINARY} --help'.\n`);
      return 2;
    }
    throw err;
  }
  if (args.mode !== 'run') {
    io.stdout.write(args.mode === 'help' ? HOST_USAGE : `${HOST_BINARY} ${packageVersion() ?? 'unknown'}\n`);
    return 0;
  }
  const log = createLogger({ namespace: 'ctl:host', write: (line) => io.stderr.write(line + '\n') });
  const { sections, defaultsDir } = args;
  const plans = (): ReturnType<typeof plansOf>['plans'] => {
    const planned = plansOf(sections, defaultsDir, io.env);
    for (const problem of planned.problems) log.warn(problem);
    return planned.plans;
  };
  const manager = serviceManagerOf(io.env, openNotifySocket, log, systemTime);
  const host = new Host({
    plans,
    io,
    log,
    time: systemTime,
    manager,
    loadMain,
    configFiles,
    ...(args.generateBoards ? { beforeStart: generateBoard } : {}),
    stderrOf: (name, env) => serviceStderr(io.stderr, env, `${name}.service`, name),
  });
  let stopping = false;
  const onStop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // As a service alone: a second signal does not wait for the stop.
      log.warn(`${signal} again: exiting now`);
      process.exit(0);
    }
    stopping = true;
    log.info(`${signal}: stopping every service`);
    void host.stop();
  };
  const onReload = (): void => {
    log.info('SIGHUP: reloading each service whose configuration or options changed');
    void host.reload().catch((err: unknown) => log.error(`reload failed: ${messageOf(err)}`));
  };
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  process.on('SIGHUP', onReload);
  releaseEarlyStops();
  try {
    const exited = host.run();
    log.info(`running ${Object.keys(host.states()).join(', ') || 'no service'} in one process (pid ${process.pid})`);
    if (takeEarlyReloads() > 0) onReload();
    return await exited;
  } finally {
    process.off('SIGTERM', onStop);
    process.off('SIGINT', onStop);
    process.off('SIGHUP', onReload);
  }
}

if (isMainModule(import.meta.url)) {
  holdEarlyStops();
  await runProcess(HOST_BINARY, main);
}
