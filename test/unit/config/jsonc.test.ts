import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonDocument } from '../../../src/core/config/json-document.js';
import { LineIndex, parseJsonc, pointerOf } from '../../../src/core/config/jsonc.js';

test('comments and trailing commas are accepted, everything else is JSON', () => {
  const text = `// leading comment
{
  /* block
     comment */ "a": 1, // after a value
  "b": [1, 2, 3,],
  "c": {"d": "x\\n\\u0041",},
}
`;
  const r = parseJsonc(text);
  assert.equal(r.error, undefined);
  assert.deepEqual(r.value, { a: 1, b: [1, 2, 3], c: { d: 'x\nA' } });
});

test('values equal JSON.parse on plain JSON', () => {
  const samples = [
    '0',
    '-0.5e3',
    '"\\"q\\" \\\\ \\/ \\b\\f\\r\\t"',
    'true',
    'false',
    'null',
    '[[],{}]',
    '{"x":{"y":[1,{"z":null}]}}',
    '1E+2',
  ];
  for (const s of samples) assert.deepEqual(parseJsonc(s).value, JSON.parse(s), s);
});

test('every value remembers where it starts', () => {
  const text = '{\n  "channels": [\n    {"name": "x", "gpio": 5}\n  ]\n}';
  const doc = JsonDocument.parse('f.conf', text);
  const p = doc.problem(['channels', 0, 'gpio'], 'bad', { value: 5 });
  assert.equal(`${p.file}:${p.line}:${p.column}: ${p.path}: ${p.message}`, 'f.conf:3:27: channels[0].gpio: bad (got 5)');
  // A missing key is reported at its parent object.
  const q = doc.problem(['channels', 0, 'direction'], 'is required');
  assert.deepEqual([q.line, q.column, q.path], [3, 5, 'channels[0].direction']);
});

test('syntax errors give one problem with line, column, path and what was found', () => {
  const cases: [string, RegExp][] = [
    ['{"a": 1 "b": 2}', /^x:1:9: \(root\): invalid JSON: expected ',' or '}' \(got "b"\)$/],
    ['{"a": [1, 2}', /^x:1:12: a: invalid JSON: expected ',' or ']' \(got }\)$/],
    ['{a: 1}', /^x:1:2: \(root\): invalid JSON: expected a property name in double quotes \(got a\)$/],
    ['{"a": tru}', /^x:1:7: a: invalid JSON: expected a value \(got tru\)$/],
    ['', /^x:1:1: \(root\): invalid JSON: unexpected end of text: expected a value$/],
    ['{"a": 1} x', /^x:1:10: \(root\): invalid JSON: unexpected text after the end of the document/],
    ['{"a": "x\ny"}', /^x:1:9: a: invalid JSON: control character in a string/],
    ['{"a": "\\q"}', /^x:1:8: a: invalid JSON: invalid escape in a string \(got \\q\)$/],
    ['{"a": 1 /* open', /^x:1:9: \(root\): invalid JSON: unterminated \/\* comment/],
    ['{"a": 01}', /^x:1:7: a: invalid JSON: expected a value \(got 01\)$/],
    ['{"a": 1e999}', /^x:1:7: a: invalid JSON: number out of range/],
    ['{"a": "open', /^x:1:7: a: invalid JSON: unterminated string/],
    ['[1,,2]', /^x:1:4: \[1\]: invalid JSON: expected a value/],
    ['{"a":\n  {"b": 1,\n   "c" 2}}', /^x:3:8: a: invalid JSON: expected ':' after property name "c"/],
  ];
  for (const [text, pattern] of cases) {
    const doc = JsonDocument.parse('x', text);
    assert.equal(doc.value, undefined, text);
    const p = doc.syntaxProblem!;
    assert.match(`${p.file}:${p.line}:${p.column}: ${p.path}: ${p.message}`, pattern, text);
  }
});

test('a key named __proto__ is plain data, not a prototype', () => {
  const r = parseJsonc('{"__proto__": {"polluted": true}, "a": 1}');
  const v = r.value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.deepEqual(Object.keys(v), ['__proto__', 'a']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('deep nesting is refused, not a stack overflow', () => {
  const r = parseJsonc('['.repeat(100_000));
  assert.match(r.error!.message, /nesting deeper than/);
});

test('duplicate keys: the last wins and is reported', () => {
  const r = parseJsonc('{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}');
  assert.deepEqual(r.value, { a: 3, b: { c: 2 } });
  assert.deepEqual(r.duplicateKeys, [['b', 'c'], ['a']]);
});

test('a byte order mark is skipped; CRLF lines count once', () => {
  const doc = JsonDocument.parse('x', '\uFEFF{\r\n"a":\r\n  true,\r\n"b": nul}');
  assert.equal(doc.syntaxProblem?.line, 4);
  assert.equal(doc.syntaxProblem?.column, 6);
});

test('pointers escape ~ and /', () => {
  assert.equal(pointerOf(['a/b', 'c~d', 0]), '/a~1b/c~0d/0');
  assert.deepEqual(new LineIndex('ab\ncd').position(3), { line: 2, column: 1 });
});

test('every value is found by its pointer, names with ~ and / escaped, as pointerOf builds it', () => {
  const text = '{"a/b": {"c~d": [10, {"e": true}]}, "f": null}';
  const r = parseJsonc(text);
  for (const [path, token] of [
    [[], '{"a/b"'],
    [['a/b'], '{"c~d"'],
    [['a/b', 'c~d'], '[10'],
    [['a/b', 'c~d', 0], '10'],
    [['a/b', 'c~d', 1, 'e'], 'true'],
    [['f'], 'null'],
  ] as const) {
    const at = r.offsets.get(pointerOf(path));
    assert.ok(at !== undefined && text.startsWith(token, at), `${pointerOf(path)} at ${at}`);
  }
  assert.equal(r.offsets.size, 7);
});
