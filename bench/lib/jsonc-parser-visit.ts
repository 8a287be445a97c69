/**
 * What src/core/config/jsonc.ts would do with the `jsonc-parser` package instead: one `visit`
 * pass building the value, the start offset of every value (by JSON pointer) and the keys given
 * twice. Imported with `node --import` by the config-parser scenario, it parses the file named by
 * CTL_BENCH_PARSE_FILE before the binary starts: the cost of loading and running that package in
 * a `-j` process.
 */
import { readFileSync } from 'node:fs';
import { visit } from 'jsonc-parser';

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

export function visitConfig(text: string): {
  value: Value | undefined;
  offsets: Map<string, number>;
  duplicates: string[];
  errors: number;
} {
  const offsets = new Map<string, number>();
  const duplicates: string[] = [];
  const stack: { container: Value[] | { [key: string]: Value }; pointer: string; key?: string; seen?: Set<string> }[] = [];
  let root: Value | undefined;
  let errors = 0;
  const pointerOfNext = (): string => {
    const top = stack.at(-1);
    if (!top) return '';
    const seg = Array.isArray(top.container) ? String(top.container.length) : (top.key ?? '');
    return `${top.pointer}/${seg.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  };
  const put = (value: Value): void => {
    const top = stack.at(-1);
    if (!top) root = value;
    else if (Array.isArray(top.container)) top.container.push(value);
    else top.container[top.key ?? ''] = value;
  };
  const open = (container: Value[] | { [key: string]: Value }, offset: number): void => {
    const pointer = pointerOfNext();
    offsets.set(pointer, offset);
    put(container);
    stack.push(Array.isArray(container) ? { container, pointer } : { container, pointer, seen: new Set() });
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => open({}, offset),
      onObjectProperty: (key) => {
        const top = stack.at(-1)!;
        if (top.seen!.has(key)) duplicates.push(`${top.pointer}/${key}`);
        top.seen!.add(key);
        top.key = key;
      },
      onObjectEnd: () => void stack.pop(),
      onArrayBegin: (offset) => open([], offset),
      onArrayEnd: () => void stack.pop(),
      onLiteralValue: (value: Value, offset) => {
        offsets.set(pointerOfNext(), offset);
        put(value);
      },
      onError: () => void errors++,
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  return { value: root, offsets, duplicates, errors };
}

const file = process.env.CTL_BENCH_PARSE_FILE;
if (file) {
  const parsed = visitConfig(readFileSync(file, 'utf8'));
  if (parsed.errors > 0 || parsed.value === undefined) throw new Error(`${file}: not valid JSON with comments`);
}
