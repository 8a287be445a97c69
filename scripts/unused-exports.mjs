#!/usr/bin/env node
// Fails when a module of src/ exports a value (function, class, constant) that no code needs:
// one no other module of src/ or bench/ imports and its own module does not use either. Such an
// export is dead code, or a helper only the tests call, which belongs under test/helpers/.
// (A function the module uses itself may be exported for its unit test.) Types are not checked.
// Usage: node scripts/unused-exports.mjs   (part of `npm run lint`)
import ts from 'typescript';
import { relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const configFile = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true, incremental: false } });
const checker = program.getTypeChecker();
const rel = (file) => relative(root, file.fileName);
const ours = program.getSourceFiles().filter((f) => !f.isDeclarationFile && !rel(f).startsWith('..') && !rel(f).includes('node_modules'));

/** The declared symbol behind an import, a re-export or a property of a module namespace. */
const target = (symbol) => (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

/** Each symbol, with the files that name it other than by declaring it. */
const usedIn = new Map();
function use(symbol, file) {
  const s = target(symbol);
  if (s === undefined) return;
  if (!usedIn.has(s)) usedIn.set(s, new Set());
  usedIn.get(s).add(rel(file));
}
/** True when `id` is the name a declaration gives (not a use of it). */
function declares(id) {
  const parent = id.parent;
  return ts.isDeclaration(parent) && ts.getNameOfDeclaration(parent) === id && !ts.isBindingElement(parent);
}

/** An `import()` whose module is returned as it is, not taken apart where it is imported. */
function handedOnWhole(call) {
  let node = call;
  while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) node = node.parent;
  return ts.isArrowFunction(node.parent) || ts.isReturnStatement(node.parent);
}

for (const file of ours) {
  (function visit(node) {
    if (ts.isIdentifier(node) && !declares(node)) use(checker.getSymbolAtLocation(node), file);
    // `const { run } = await import('../gpio/run.js')`: the binding names a property of the module.
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = (node.propertyName ?? node.name).getText(file);
      use(checker.getTypeAtLocation(node.parent).getProperty(name), file);
    }
    // `loadRuntime: () => import('../adc/run.js')`: the module goes whole where its type says.
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && handedOnWhole(node)) {
      const module = checker.getSymbolAtLocation(node.arguments[0]);
      for (const exported of module === undefined ? [] : checker.getExportsOfModule(module)) use(exported, file);
    }
    ts.forEachChild(node, visit);
  })(file);
}

// The console's page (src/console/web/*.js, not part of the TypeScript program) imports modules
// of src/console/common/ that the build serves beside it (`import { titleIn } from './control-rules.js'`):
// those names are used.
const pageImports = new Map();
const webDir = resolve(root, 'src/console/web');
for (const name of ts.sys.readDirectory(webDir, ['.js'])) {
  const text = ts.sys.readFile(name) ?? '';
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/([\w-]+)\.js'/g)) {
    const names = m[1]
      .split(',')
      .map((n) => n.trim().split(/\s+as\s+/)[0])
      .filter(Boolean);
    const module = `src/console/common/${m[2]}.ts`;
    pageImports.set(module, new Set([...(pageImports.get(module) ?? []), ...names]));
  }
}

const problems = [];
for (const file of ours.filter((f) => rel(f).startsWith('src/'))) {
  const module = checker.getSymbolAtLocation(file);
  if (module === undefined) continue;
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = target(exported);
    if (!(symbol.flags & ts.SymbolFlags.Value)) continue;
    const declaration = symbol.declarations?.[0];
    if (declaration === undefined || declaration.getSourceFile() !== file) continue; // a re-export: its own module answers for it
    const users = [...(usedIn.get(symbol) ?? [])];
    const needed =
      users.some((u) => u === rel(file) || u.startsWith('src/') || u.startsWith('bench/')) ||
      pageImports.get(rel(file))?.has(exported.name) === true;
    if (needed) continue;
    const { line } = file.getLineAndCharacterOfPosition(declaration.getStart());
    const by = users.length === 0 ? 'nothing uses it' : `only ${users.join(', ')} use${users.length === 1 ? 's' : ''} it`;
    problems.push(`${rel(file)}:${line + 1}: ${exported.name} is exported, but ${by}`);
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`${problems.length} export(s) no code needs: remove them, or move a test's helper to test/helpers/`);
  process.exit(1);
}
console.log(`unused exports: none in src/ (${ours.length} files read)`);
