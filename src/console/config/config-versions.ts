/**
 * The last versions of each configuration file, kept in the console's state directory
 * (`<state>/versions/<service>/<time>-<version>.conf`), so a save can be undone from the page. A
 * save keeps the file as it was before (the first time) and as it is after; only the newest
 * `keep` stay, and the file as it was before the console's first save (the "original": the
 * installed file, or the one written by hand), which is never dropped: the way back to it stays
 * whatever the number of saves since. The state directory is the console's own: the sandboxed unit may write there and
 * to the two config files, nowhere else.
 */
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/persist/atomic-write.js';
import { fileVersion } from './file-version.js';
import { HttpError } from '../http/http-io.js';
import { answer } from '../http/answers.js';

export interface StoredVersion {
  /** `<ms since epoch>-<version>`: sorts by time, names the content. */
  readonly id: string;
  readonly savedAt: string;
  /** The content's version (as a load reports it). */
  readonly version: string;
  readonly bytes: number;
  /** The file as it was before the console's first save. */
  readonly original: boolean;
}

const ID = /^(\d{13})-([A-Za-z0-9_-]{1,40})$/;

export class ConfigVersions {
  constructor(
    private readonly dir: string,
    private readonly keep = 5,
  ) {}

  private folder(service: string): string {
    return join(this.dir, service);
  }

  /** The file naming the service's original version (beside its folder: the folder holds versions only). */
  private originalMark(service: string): string {
    return join(this.dir, `${service}.original`);
  }

  /** Newest first. */
  async list(service: string): Promise<StoredVersion[]> {
    let names: string[];
    try {
      names = await readdir(this.folder(service));
    } catch {
      return [];
    }
    const original = (await readFile(this.originalMark(service), 'utf8').catch(() => '')).trim();
    const versions: StoredVersion[] = [];
    for (const name of names) {
      const m = ID.exec(name.replace(/\.conf$/, ''));
      if (m === null || !name.endsWith('.conf')) continue;
      const content = await readFile(join(this.folder(service), name)).catch(() => null);
      if (content === null) continue;
      const id = `${m[1]}-${m[2]}`;
      versions.push({
        id,
        savedAt: new Date(Number(m[1])).toISOString(),
        version: m[2]!,
        bytes: content.length,
        original: id === original,
      });
    }
    return versions.sort((a, b) => b.id.localeCompare(a.id));
  }

  /**
   * Keeps `content` as the newest version (unless it already is), then drops the oldest beyond
   * `keep` (never the original). `original`: this is the file before a save; it is marked as
   * the original when nothing of the service is kept yet (the console's first save).
   */
  async add(service: string, content: Buffer | string, { original = false }: { original?: boolean } = {}): Promise<void> {
    const version = fileVersion(content);
    const existing = await this.list(service);
    if (existing[0]?.version === version) return;
    await mkdir(this.folder(service), { recursive: true, mode: 0o700 });
    // Never two with one time: a second save in the same millisecond gets the next one.
    const now = Math.max(Date.now(), existing[0] === undefined ? 0 : Number(existing[0].id.slice(0, 13)) + 1);
    await writeFileAtomic(join(this.folder(service), `${now}-${version}.conf`), content, { mode: 0o600 });
    if (original && existing.length === 0) await writeFile(this.originalMark(service), `${now}-${version}\n`, { mode: 0o600 });
    for (const old of (await this.list(service)).filter((v) => !v.original).slice(this.keep)) {
      await unlink(join(this.folder(service), `${old.id}.conf`)).catch(() => undefined);
    }
  }

  /** @throws HttpError 404 for an id that is not (or no longer) kept. */
  async read(service: string, id: string): Promise<Buffer> {
    if (!ID.test(id)) throw new HttpError(400, `version: not a version id (${JSON.stringify(id)})`);
    try {
      return await readFile(join(this.folder(service), `${id}.conf`));
    } catch {
      throw new HttpError(404, answer('version.gone', { id, keep: this.keep }));
    }
  }
}
