/**
 * The configuration files the console may read and write: exactly those named by the installed
 * schemas (`configFile.path`), one per service, fixed when the console starts. A request names a
 * service, never a path.
 *
 * Load: the service's `toJSON` command (`-j`) with the file on stdin gives the editor JSON.
 * Save: `fromJSON` (`-J`) turns the edited JSON into the file's text, or lists its problems; only
 * then is the previous file kept as `<file>.bak` and the new one put in place atomically (a
 * reader or a power cut sees the old file or the new one), and the service is told to take it
 * (`apply`). A save with problems, or a failing `-J`, changes nothing.
 */
import { readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../core/persist/atomic-write.js';
import { messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { editorSchema } from './editor-schema.js';
import { HttpError } from './http-io.js';
import { runCommand } from './run-command.js';

/** Makes a saved config take effect: a command (no shell) or, in the demo, a function. */
export type ApplyAction = readonly string[] | (() => Promise<void>);

export interface ConfigService {
  /** The service name, from `configFile.service` (`ctl-mqtt-gpio`). */
  readonly id: string;
  /** The schema's title. */
  readonly title: string;
  /** The schema as read (with `configFile`). */
  readonly schema: Record<string, unknown>;
  readonly configFile: string;
  /** argv of `-j` and `-J`. */
  readonly toJSON: readonly string[];
  readonly fromJSON: readonly string[];
  readonly apply: ApplyAction;
}

export type SaveResult =
  | { readonly saved: false; readonly problems: readonly string[] }
  | { readonly saved: true; readonly applied: boolean; readonly applyError?: string };

/** `<stdin>:1:57: channels[0].name: ...`: the position is in the one-line JSON we sent, useless to a reader. */
const STDIN_POSITION = /^<stdin>(?::\d+:\d+)?: /;

function problemLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.replace(STDIN_POSITION, '').trim())
    .filter((line) => line !== '' && !line.startsWith('WARNING') && !line.startsWith('INFO'));
}

export class ConfigStore {
  private readonly services = new Map<string, ConfigService>();
  /** One save at a time per service: two tabs saving at once must not interleave. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    services: readonly ConfigService[],
    private readonly log: Logger,
  ) {
    for (const service of services) this.services.set(service.id, service);
  }

  list(): Array<{ id: string; title: string; configFile: string }> {
    return [...this.services.values()].map((s) => ({ id: s.id, title: s.title, configFile: s.configFile }));
  }

  /** @throws HttpError 404 for a service the console does not manage. */
  service(id: string): ConfigService {
    const service = this.services.get(id);
    if (service === undefined) throw new HttpError(404, `no configuration named ${JSON.stringify(id)}`);
    return service;
  }

  /** The schema for the form and the config as editor JSON. @throws HttpError 500 when `-j` fails. */
  async load(id: string): Promise<{ schema: Record<string, unknown>; config: unknown }> {
    const service = this.service(id);
    const text = await readFile(service.configFile, 'utf8').catch((err: unknown) => {
      throw new HttpError(500, `cannot read ${service.configFile}: ${messageOf(err)}`);
    });
    const result = await runCommand(service.toJSON, text);
    if (result.code !== 0) {
      const why = result.failure ?? (problemLines(result.stderr).join('; ') || `exit code ${result.code}`);
      throw new HttpError(500, `${service.configFile} cannot be opened in the form: ${why}`);
    }
    let config: unknown;
    try {
      config = JSON.parse(result.stdout);
    } catch {
      throw new HttpError(500, `${service.toJSON.join(' ')} printed something that is not JSON`);
    }
    return { schema: editorSchema(service.schema), config };
  }

  /** Converts, writes and applies `config` (editor JSON). */
  save(id: string, config: unknown): Promise<SaveResult> {
    const service = this.service(id);
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.saveNow(service, config));
    this.queues.set(id, next);
    return next;
  }

  private async saveNow(service: ConfigService, config: unknown): Promise<SaveResult> {
    const converted = await runCommand(service.fromJSON, JSON.stringify(config));
    if (converted.code !== 0) {
      if (converted.failure !== undefined) throw new HttpError(500, `cannot check the configuration: ${converted.failure}`);
      const problems = problemLines(converted.stderr);
      return { saved: false, problems: problems.length > 0 ? problems : [`${service.fromJSON.join(' ')} refused it (exit code ${converted.code})`] };
    }
    if (converted.stdout.trim() === '') throw new HttpError(500, `${service.fromJSON.join(' ')} printed nothing`);
    const file = service.configFile;
    let mode = 0o644;
    try {
      const st = await stat(file);
      mode = st.mode & 0o777;
      await writeFileAtomic(`${file}.bak`, await readFile(file), { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new HttpError(500, `cannot keep a copy of ${file}: ${messageOf(err)}`);
    }
    try {
      await writeFileAtomic(file, converted.stdout, { mode });
    } catch (err) {
      throw new HttpError(500, `cannot write ${file}: ${messageOf(err)}`);
    }
    this.log.info(`${file} saved (previous kept as ${file}.bak)`);
    const applyError = await this.applyNow(service);
    return applyError === undefined ? { saved: true, applied: true } : { saved: true, applied: false, applyError };
  }

  /** Runs the service's apply action; the error line, or undefined when it worked. */
  private async applyNow(service: ConfigService): Promise<string | undefined> {
    try {
      if (typeof service.apply === 'function') {
        await service.apply();
        return undefined;
      }
      const result = await runCommand(service.apply as readonly string[], '', 60_000);
      if (result.code === 0) return undefined;
      const why = result.failure ?? (result.stderr.trim().split('\n').pop() || `exit code ${result.code}`);
      this.log.warn(`${service.id}: applying the new configuration failed: ${why}`);
      return why;
    } catch (err) {
      this.log.warn(`${service.id}: applying the new configuration failed: ${messageOf(err)}`);
      return messageOf(err);
    }
  }
}
