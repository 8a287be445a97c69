/**
 * The configuration files the console may read and write: exactly those named by the installed
 * schemas (`configFile.path`), one per service, fixed when the console starts. A request names a
 * service, never a path.
 *
 * Load: the service's `toJSON` command (`-j`) with the file on stdin gives the editor JSON.
 * Save: `fromJSON` (`-J`) turns the edited JSON into the file's text, or lists its problems, and
 * the channels are checked against the controller's hardware (hardware-check.ts); only then is the
 * file written (config-writer.ts: through a journal in the state directory), the new content kept
 * among the file's last versions (config-versions.ts), and the service told to take it (`apply`).
 * A save with problems, or a failing `-J`, changes nothing. A restore is a save of a kept version.
 *
 * Versions: a load says which version of the file it read (a hash of its bytes), and a save names
 * the version it edits. When the file changed meanwhile (another browser saved, or someone
 * edited it by hand) the save is refused (409) instead of silently overwriting that change.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { consoleRule } from './console-rules.js';
import { ConfigVersions, type StoredVersion } from './config-versions.js';
import { diffCounts, lineDiff, type DiffLine } from './line-diff.js';
import { writeConfigFile } from './config-writer.js';
import { editedText } from './comment-keeping-edit.js';
import { formModel } from './editor-schema.js';
import type { FormModel, HardwareAnswer } from '../common/config-page-model.js';
import type { Language } from '../http/page-language.js';
import { fileVersion } from './file-version.js';
import { hardwareProblems, listHardware } from './hardware-check.js';
import { HttpError } from '../http/http-io.js';
import { runCommand } from './run-command.js';
import { answer } from '../http/answers.js';
import type { ConfigService, ConfigServices } from './config-services.js';

export { fileVersion } from './file-version.js';

export type SaveResult = (
  | {
      readonly saved: false;
      readonly problems: readonly string[];
      /**
       * Whose check refused it: the service's `-J`, the console's against the hardware listing, or
       * both (a refused save says everything either found at once, not one stage per save).
       */
      readonly refusedBy: 'service' | 'hardware' | 'both';
    }
  | {
      readonly saved: true;
      readonly applied: boolean;
      readonly applyError?: string;
      readonly version: string;
      /** The save changed nothing in the file, so it was not written. */
      readonly unchanged?: boolean;
    }
) & {
  /** Why the channels were not checked against the hardware, when they were not. */
  readonly hardwareUnchecked?: string;
};

async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new HttpError(500, answer('config.cannot-read', { file, why: messageOf(err) }));
  }
}

/** `<stdin>:1:57: channels[0].name: ...`: the position is in the one-line JSON we sent, useless to a reader. */
const STDIN_POSITION = /^<stdin>(?::\d+:\d+)?: /;

function problemLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.replace(STDIN_POSITION, '').trim())
    .filter((line) => line !== '' && !line.startsWith('WARNING') && !line.startsWith('INFO'));
}

export class ConfigStore {
  /** One save at a time per service: two tabs saving at once must not interleave. */
  private readonly queues = new Map<string, Promise<unknown>>();

  private readonly versions: ConfigVersions;

  /** `stateDir`: where the kept versions and the write journal go (the console's own directory). */
  constructor(
    private readonly services: ConfigServices,
    private readonly log: Logger,
    private readonly stateDir: string,
  ) {
    this.versions = new ConfigVersions(join(stateDir, 'versions'));
  }

  /** @throws HttpError 404 for a service the console does not manage. */
  service(id: string): ConfigService {
    return this.services.service(id);
  }

  /**
   * The schema for the form, the config as editor JSON and the version of the file it came from.
   * @throws HttpError 500 when `-j` fails.
   */
  async load(id: string, language: Language = 'en'): Promise<{ form: FormModel; config: unknown; version: string }> {
    const service = this.service(id);
    const bytes = await readFile(service.configFile).catch((err: unknown) => {
      throw new HttpError(500, answer('config.cannot-read', { file: service.configFile, why: messageOf(err) }));
    });
    const config = await this.toEditorJson(service, bytes, service.configFile);
    return { form: formModel(service.schema, language), config, version: fileVersion(bytes) };
  }

  /** A file's content as editor JSON (`-j`). @throws HttpError 500 naming `what` */
  private async toEditorJson(service: ConfigService, bytes: Buffer, what: string): Promise<unknown> {
    const result = await runCommand(service.toJSON, bytes.toString('utf8'));
    if (result.code !== 0) {
      const why = result.failure ?? (problemLines(result.stderr).join('; ') || `exit code ${result.code}`);
      throw new HttpError(500, answer('config.not-in-form', { what, why }));
    }
    try {
      return JSON.parse(result.stdout) as unknown;
    } catch {
      throw new HttpError(500, answer('config.not-json', { command: service.toJSON.join(' ') }));
    }
  }

  /** The controller's lines or channels, for the page's picker. */
  hardware(id: string): Promise<HardwareAnswer> {
    const service = this.service(id);
    return listHardware(service.listHardware, service.listingOptionsFile);
  }

  /**
   * The kept versions of the file, newest first; `current` marks the newest one with what the
   * file holds now (an older one with the same text is not "in the file now" twice), and each
   * says how many lines the file now has that it has not (`added`) and the other way round.
   */
  async history(id: string): Promise<Array<StoredVersion & { current: boolean; added: number; removed: number }>> {
    const service = this.service(id);
    const bytes = await readIfExists(service.configFile);
    const now = fileVersion(bytes);
    const nowText = bytes?.toString('utf8') ?? '';
    const versions = await this.versions.list(service.id);
    const currentId = versions.find((v) => v.version === now)?.id;
    return Promise.all(
      versions.map(async (v) => {
        const text = (await this.versions.read(service.id, v.id)).toString('utf8');
        return { ...v, current: v.id === currentId, ...diffCounts(lineDiff(text, nowText)) };
      }),
    );
  }

  /** A kept version against the file now, line by line (`-`: only in the version, `+`: only in the file). */
  async versionDiff(id: string, versionId: string): Promise<{ lines: DiffLine[] }> {
    const service = this.service(id);
    const text = (await this.versions.read(service.id, versionId)).toString('utf8');
    const now = (await readIfExists(service.configFile))?.toString('utf8') ?? '';
    return { lines: lineDiff(text, now) };
  }

  /**
   * Puts a kept version back: read as editor JSON and saved like an edit (checked, versioned,
   * applied), as the edit of the file's `version`.
   */
  async restore(id: string, versionId: string, version: string): Promise<SaveResult> {
    const service = this.service(id);
    const bytes = await this.versions.read(service.id, versionId);
    const config = await this.toEditorJson(service, bytes, `the kept version ${versionId}`);
    return this.save(id, config, version, bytes.toString('utf8'));
  }

  /**
   * Converts, writes and applies `config` (editor JSON), the edit of the file's `version` (from
   * load; undefined: whatever the file holds now).
   * @throws HttpError 409 when the file is no longer that version.
   */
  save(id: string, config: unknown, version?: string, exactText?: string): Promise<SaveResult> {
    const service = this.service(id);
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.saveNow(service, config, version, exactText));
    this.queues.set(id, next);
    return next;
  }

  /** `exactText`: once checked, write this text (a kept version, comments and all) instead of `-J`'s. */
  private async saveNow(service: ConfigService, config: unknown, version: string | undefined, exactText?: string): Promise<SaveResult> {
    if (version !== undefined && fileVersion(await readIfExists(service.configFile)) !== version) {
      throw new HttpError(409, answer('config.changed-meanwhile', { file: service.configFile }));
    }
    // Both checks run (the listing beside -J): a refused save names all it can at once.
    const [converted, hardware] = await Promise.all([
      runCommand(service.fromJSON, JSON.stringify(config)),
      listHardware(service.listHardware, service.listingOptionsFile),
    ]);
    const unchecked = hardware.available ? {} : { hardwareUnchecked: hardware.why };
    const onHardware = hardware.available ? hardwareProblems(config, hardware.list) : [];
    if (converted.code !== 0) {
      if (converted.failure !== undefined) throw new HttpError(500, answer('config.cannot-check', { why: converted.failure }));
      const problems = problemLines(converted.stderr);
      const byService =
        problems.length > 0
          ? problems
          : [consoleRule('save.refused', { command: service.fromJSON.join(' '), code: String(converted.code) })];
      return {
        saved: false,
        problems: [...byService, ...onHardware.filter((p) => !byService.includes(p))],
        refusedBy: onHardware.length > 0 ? 'both' : 'service',
      };
    }
    if (converted.stdout.trim() === '') throw new HttpError(500, answer('config.printed-nothing', { command: service.fromJSON.join(' ') }));
    if (onHardware.length > 0) return { saved: false, problems: onHardware, refusedBy: 'hardware' };
    const file = service.configFile;
    const before = await readIfExists(file);
    const text = exactText ?? withCommentsKept(before, converted.stdout);
    const unchanged = before !== null && before.toString('utf8') === text;
    if (unchanged) {
      this.log.info(`${file}: the save changes nothing in it; not written`);
    } else {
      try {
        // The file as it was is kept too, the first time: the first save can be undone.
        if (before !== null) await this.versions.add(service.id, before, { original: true });
        await writeConfigFile(this.stateDir, service.id, file, text);
        await this.versions.add(service.id, text);
      } catch (err) {
        if (err instanceof HttpError) throw err;
        throw new HttpError(500, answer('config.cannot-write', { file, why: messageOf(err) }));
      }
      this.log.info(`${file} saved (the last versions are kept in ${join(this.stateDir, 'versions', service.id)})`);
    }
    const saved = fileVersion(text);
    const applyError = await this.applyNow(service);
    const same = unchanged ? { unchanged: true } : {};
    return applyError === undefined
      ? { saved: true, applied: true, version: saved, ...same, ...unchecked }
      : { saved: true, applied: false, applyError, version: saved, ...same, ...unchecked };
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

/**
 * What a save writes: `-J`'s configuration edited into the file's own text, so its comments and
 * layout stay (comment-keeping-edit.ts); `-J`'s text itself for a new file, or when the old text
 * cannot take the edit.
 */
function withCommentsKept(before: Buffer | null, converted: string): string {
  if (before === null) return converted;
  let next: unknown;
  try {
    next = JSON.parse(converted);
  } catch {
    return converted;
  }
  return editedText(before.toString('utf8'), next) ?? converted;
}
