/**
 * The configuration API of the console (the page's side is web/config.js):
 *   GET  /api/config                      the configurations the console edits
 *   GET  /api/config/:id?lang=ru          the form (in that language), the config, its version
 *   POST /api/config/:id?lang=ru          save {config, version}: 200, 422 with problems (in that language), 409 stale
 *   GET  /api/config/:id/hardware         the controller's GPIO lines or IIO channels, for the picker
 *   GET  /api/config/:id/versions         the last kept versions of the file
 *   GET  /api/config/:id/versions/:v/diff a kept version against the file now, line by line
 *   POST /api/config/:id/restore?lang=ru  {id, version}: puts a kept version back, as a save
 * Every route needs a logged-in session (`requireAuth` throws 401).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConfigStore, SaveResult } from './config-store.js';
import type { ConfigServices } from './config-services.js';
import { answer } from '../http/answers.js';
import { answerIn } from '../http/answer-language.js';
import { languageAsked } from '../http/page-language.js';
import { decodePathPart, HttpError, readJsonObject, sendJson } from '../http/http-io.js';

export interface ConfigRoute {
  readonly method: string;
  readonly pattern: RegExp;
  readonly handle: (ctx: { req: IncomingMessage; res: ServerResponse }, match: RegExpExecArray) => Promise<void> | void;
}

/** A config is a few KiB (256 channels: ~60 KiB). */
const CONFIG_BODY = 1024 * 1024;
const SMALL_BODY = 4 * 1024;

/** A save's answer, its problems (and why the hardware went unchecked) in the page's language. */
async function sendSave(req: IncomingMessage, res: ServerResponse, result: SaveResult): Promise<void> {
  const language = languageAsked(req);
  const unchecked = result.hardwareUnchecked === undefined ? {} : { hardwareUnchecked: answerIn(language, result.hardwareUnchecked) };
  if (result.saved) sendJson(res, 200, { ...result, ...unchecked });
  else {
    const { problemsIn } = await import('./problem-language.js'); // with the store: loaded when first needed
    sendJson(res, 422, { ...result, ...unchecked, problems: problemsIn(language, result.problems) });
  }
}

/** Which file the edit was made on: without it a save could overwrite another's. */
function versionOf(body: Record<string, unknown>): string {
  if (typeof body['version'] !== 'string') throw new HttpError(400, answer('config.no-version'));
  return body['version'];
}

export function configRoutes(
  services: ConfigServices,
  openStore: () => Promise<ConfigStore>,
  requireAuth: (ctx: { req: IncomingMessage }) => void,
): ConfigRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/config$/,
      handle: (ctx) => {
        requireAuth(ctx);
        sendJson(ctx.res, 200, { services: services.list() });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/config\/([^/]+)$/,
      handle: async (ctx, m) => {
        const id = decodePathPart(m[1]!);
        requireAuth(ctx);
        const service = services.service(id);
        const { form, config, version } = await (await openStore()).load(id, languageAsked(ctx.req));
        sendJson(ctx.res, 200, { id, title: form.title || service.title, configFile: service.configFile, form, config, version });
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/config\/([^/]+)$/,
      handle: async (ctx, m) => {
        const id = decodePathPart(m[1]!);
        requireAuth(ctx);
        services.service(id);
        const body = await readJsonObject(ctx.req, CONFIG_BODY);
        if (body['config'] === null || typeof body['config'] !== 'object' || Array.isArray(body['config'])) {
          throw new HttpError(400, 'expected {"config": {...}}');
        }
        await sendSave(ctx.req, ctx.res, await (await openStore()).save(id, body['config'], versionOf(body)));
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/config\/([^/]+)\/hardware$/,
      handle: async (ctx, m) => {
        const id = decodePathPart(m[1]!);
        requireAuth(ctx);
        sendJson(ctx.res, 200, await (await openStore()).hardware(id));
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/config\/([^/]+)\/versions$/,
      handle: async (ctx, m) => {
        const id = decodePathPart(m[1]!);
        requireAuth(ctx);
        sendJson(ctx.res, 200, { versions: await (await openStore()).history(id) });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/config\/([^/]+)\/versions\/([^/]+)\/diff$/,
      handle: async (ctx, m) => {
        const id = decodePathPart(m[1]!);
        requireAuth(ctx);
        sendJson(ctx.res, 200, await (await openStore()).versionDiff(id, decodePathPart(m[2]!)));
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/config\/([^/]+)\/restore$/,
      handle: async (ctx, m) => {
        const id = decodePathPart(m[1]!);
        requireAuth(ctx);
        services.service(id);
        const body = await readJsonObject(ctx.req, SMALL_BODY);
        if (typeof body['id'] !== 'string') throw new HttpError(400, 'id: expected the id of a kept version');
        await sendSave(ctx.req, ctx.res, await (await openStore()).restore(id, body['id'], versionOf(body)));
      },
    },
  ];
}
