/**
 * docs/configuration.md is generated from the schemas by scripts/config-doc.mjs. This renders the
 * page in memory and compares it with the committed one, so a schema change without the page
 * regenerated (`node scripts/config-doc.mjs`) fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

/** The repository root, seen from dist/test/unit/docs/. */
const ROOT = new URL('../../../../', import.meta.url);

interface ConfigDocScript {
  renderConfigurationDoc(): string;
  DOC_PATH: string;
}

test('docs/configuration.md is what scripts/config-doc.mjs makes of the schemas', async () => {
  const loaded: unknown = await import(new URL('scripts/config-doc.mjs', ROOT).href);
  const script = loaded as ConfigDocScript;
  const committed = readFileSync(new URL(script.DOC_PATH, ROOT), 'utf8');
  const fresh = script.renderConfigurationDoc();
  if (committed !== fresh) {
    const a = committed.split('\n');
    const b = fresh.split('\n');
    let line = 0;
    while (line < a.length && a[line] === b[line]) line++;
    assert.fail(
      `${script.DOC_PATH} is out of date (first difference at line ${line + 1}): run node scripts/config-doc.mjs\n` +
        `committed: ${a[line] ?? '(end of file)'}\nfresh:     ${b[line] ?? '(end of file)'}`,
    );
  }
});

test('the page names every field of both schemas', async () => {
  const loaded: unknown = await import(new URL('scripts/config-doc.mjs', ROOT).href);
  const page = (loaded as ConfigDocScript).renderConfigurationDoc();
  for (const binary of ['ctl-mqtt-gpio', 'ctl-mqtt-adc']) {
    const schema = JSON.parse(readFileSync(new URL(`schemas/${binary}.schema.json`, ROOT), 'utf8')) as {
      properties: Record<string, unknown>;
      definitions: Record<string, { properties?: Record<string, unknown> }>;
    };
    const keys = new Set(Object.keys(schema.properties));
    for (const definition of Object.values(schema.definitions)) {
      for (const key of Object.keys(definition.properties ?? {})) keys.add(key);
    }
    for (const key of keys) assert.match(page, new RegExp(`\\| \`${key}\` \\|`), `${binary}: ${key} has a row`);
  }
});
