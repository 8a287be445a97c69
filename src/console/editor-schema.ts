/**
 * A service's schema as the form library reads it. The schemas carry the editor keywords of
 * Wiren Board's config editor, which hides one of them from validators: `_format` is read as
 * `format` (a validator would otherwise apply `format` to the data), as wb-mqtt-confed does.
 * Formats the form library does not have (Wiren Board's own widgets) are left out, so the
 * field falls back to the library's default for its type.
 */

/** Values of `format` the form library renders. */
const KNOWN_FORMATS = new Set(['checkbox', 'grid', 'grid-strict', 'table', 'tabs', 'tabs-top', 'categories', 'select', 'radio', 'textarea', 'number', 'range']);

/** The schema for the page: `_format` read as `format`, without the top-level `configFile`. */
export function editorSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { configFile: _commands, ...rest } = schema;
  return mapFormats(rest) as Record<string, unknown>;
}

function mapFormats(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(mapFormats);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === '_format') {
      if (typeof value === 'string' && KNOWN_FORMATS.has(value) && !('format' in schema)) out['format'] = value;
      continue;
    }
    out[key] = mapFormats(value);
  }
  return out;
}
