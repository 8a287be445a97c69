/**
 * The page's own files (html, js, css), served from the package's web
 * directory. The list of files is taken once at start: a request names one of them or gets 404,
 * so no path a client sends ever reaches the file system. Nothing comes from a CDN: controllers
 * are often offline.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, relative } from 'node:path';
import { packagePath } from '../../core/package-root.js';
import { SECURITY_HEADERS } from './http-io.js';

/** Where the build puts the web files (dist/src/console/web). */
export const WEB_DIR = packagePath('dist', 'src', 'console', 'web');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

interface StaticFile {
  readonly path: string;
  readonly type: string;
  readonly etag: string;
}

export class StaticFiles {
  private readonly files = new Map<string, StaticFile>();

  constructor(dir: string = WEB_DIR) {
    const walk = (at: string): void => {
      for (const name of readdirSync(at)) {
        const path = join(at, name);
        const st = statSync(path);
        if (st.isDirectory()) walk(path);
        else if (TYPES[extname(name)] !== undefined) {
          const url = '/' + relative(dir, path).split('\\').join('/');
          this.files.set(url, {
            path,
            type: TYPES[extname(name)]!,
            etag: `"${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}"`,
          });
        }
      }
    };
    walk(dir);
  }

  has(url: string): boolean {
    return this.files.has(url);
  }

  /** Sends the file at `url` (one of the listed ones); false when there is none. */
  send(url: string, res: ServerResponse, ifNoneMatch: string | undefined): boolean {
    const file = this.files.get(url);
    if (file === undefined) return false;
    // Revalidated each time (a package upgrade changes them), answered 304 while unchanged.
    const headers = { ...SECURITY_HEADERS, 'Content-Type': file.type, 'Cache-Control': 'no-cache', ETag: file.etag };
    if (ifNoneMatch === file.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    res.writeHead(200, headers);
    createReadStream(file.path)
      .on('error', () => res.destroy())
      .pipe(res);
    return true;
  }
}
