#!/usr/bin/env -S node --v8-pool-size=1 --max-semi-space-size=1 --no-opt
/**
 * The `ctl-mqtt-console` binary: the web console (src/console/), or `--set-password`. Exit codes
 * as the services': 0, 1 runtime failure, 2 bad arguments (one line, then the --help hint).
 */
// First of all: a reload signal during the start must not end the process (see the module).
import { holdEarlyStops, releaseEarlyStops, takeEarlyReloads } from '../service/early-signals.js';
import { existsSync } from 'node:fs';
import { CONSOLE_BINARY, CONSOLE_USAGE, DEFAULT_SCHEMAS, parseConsoleArgs, type ConsoleArgs } from '../console/console-args.js';
import { startConsole } from '../console/console-app.js';
import { readPasswordHash, writePasswordHash } from '../console/auth/password.js';
import { promptNewPassword } from '../console/auth/password-prompt.js';
import { serviceFromSchema } from '../console/config/service-definitions.js';
import { CtlError, messageOf } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { topicPrefixProblem } from '../mqtt/topics.js';
import { processIo, type CliIo } from './cli-io.js';
import { checkMqttString } from '../mqtt/topic-length-limits.js';
import { isMainModule } from '../service/is-main.js';
import { packageVersion } from '../service/package-version.js';

/**
 * Every broker credential the console is given (`-u`, `-P`, and a user name or password in the
 * `--broker` URL; the console reads none from the environment or a file) must fit an MQTT string:
 * too long, the MQTT client would throw at its first packet, or the broker drop every CONNECT.
 * @throws CtlError USAGE
 */
function checkBrokerCredentials(args: ConsoleArgs): void {
  checkMqttString('-u (user name)', args.username);
  checkMqttString('-P (password)', args.password);
  let url: URL;
  try {
    url = new URL(args.brokerUrl);
  } catch {
    return; // the broker options say what is wrong with it, in their words
  }
  for (const [what, encoded] of [
    ["the user name in --broker's URL", url.username],
    ["the password in --broker's URL", url.password],
  ] as const) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(encoded);
    } catch {
      throw new CtlError('USAGE', `${what} has a malformed percent-encoding (a literal % is written %25)`);
    }
    checkMqttString(what, decoded);
  }
}

/** Runs the console until `stop` aborts; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo, stop: AbortSignal): Promise<number> {
  try {
    const args = parseConsoleArgs(argv);
    if (args.mode === 'help') {
      io.stdout.write(CONSOLE_USAGE);
      return 0;
    }
    if (args.mode === 'version') {
      io.stdout.write(`${CONSOLE_BINARY} ${packageVersion() ?? 'unknown'}\n`);
      return 0;
    }
    if (args.mode === 'set-password') {
      const password = await promptNewPassword(io.stdinIsTTY, () => io.readStdin(), io.stderr);
      await writePasswordHash(args.passwordFile, password);
      io.stderr.write(`${CONSOLE_BINARY}: password stored in ${args.passwordFile} (restart the console to use it)\n`);
      return 0;
    }
    checkBrokerCredentials(args);
    const prefixProblem = topicPrefixProblem(args.topicPrefix);
    if (prefixProblem !== undefined) throw new CtlError('USAGE', `--topic-prefix: ${prefixProblem}`);
    const schemaFiles = args.schemas.length > 0 ? args.schemas : DEFAULT_SCHEMAS.filter((f) => existsSync(f));
    const services = schemaFiles.map((file) => {
      const base = serviceFromSchema(file);
      const apply = args.apply.get(base.id);
      return apply === undefined ? base : { ...base, apply };
    });
    for (const name of args.apply.keys()) {
      if (!services.some((s) => s.id === name)) throw new CtlError('USAGE', `--apply ${name}: no schema names that service`);
    }
    const log = createLogger({ namespace: 'ctl:console', write: (line) => io.stderr.write(line + '\n') });
    // Node ends a process on SIGHUP, and systemd counts that as a clean end it does not restart:
    // `kill -HUP` or a `systemctl reload` sent to every unit must not take the console down.
    // In the host process the host has the signal.
    if (io.hosted === undefined) {
      const onReload = (): void => log.info('SIGHUP: the console has nothing to reload (it reads its options and password at start)');
      process.on('SIGHUP', onReload);
      if (takeEarlyReloads() > 0) onReload();
      stop.addEventListener('abort', () => process.off('SIGHUP', onReload), { once: true });
    }
    const running = await startConsole({
      host: args.listen,
      port: args.port,
      passwordHash: await readPasswordHash(args.passwordFile),
      broker: {
        url: args.brokerUrl,
        ...(args.username !== null && { username: args.username }),
        ...(args.password !== null && { password: args.password }),
      },
      topicPrefix: args.topicPrefix,
      services,
      log,
      trustedProxies: args.trustedProxies,
      env: io.env,
    });
    log.info(`listening on ${running.url} (${services.map((s) => s.configFile).join(', ') || 'no configurations'})`);
    io.hosted?.serviceManager.ready();
    await new Promise<void>((resolve) => (stop.aborted ? resolve() : stop.addEventListener('abort', () => resolve(), { once: true })));
    await running.close();
    return 0;
  } catch (err) {
    if (err instanceof CtlError && err.code === 'USAGE') {
      io.stderr.write(`${CONSOLE_BINARY}: ${err.message}\nTry '${CONSOLE_BINARY} --help'.\n`);
      return 2;
    }
    const prefix = err instanceof CtlError ? '' : 'internal error: ';
    io.stderr.write(`${CONSOLE_BINARY}: ${prefix}${messageOf(err).split('\n')[0]}\n`);
    return 1;
  }
}

function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort(signal));
  releaseEarlyStops();
  return controller.signal;
}

/** Runs the console as its own process until SIGTERM or SIGINT. */
export async function runConsoleProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo(), stopOnSignals());
}

if (isMainModule(import.meta.url)) {
  holdEarlyStops();
  await runConsoleProcess();
}
