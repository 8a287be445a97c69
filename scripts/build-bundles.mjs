#!/usr/bin/env node
// Bundles each installed command into one file (dist/bin/<binary>.js), from the compiled modules
// tsc wrote to dist/src: what the package installs and the demo and the bench run.
//
// Why: a Node process keeps every module it loaded (its source text, its module record, the
// functions compiled from it). The GPIO service loads ~150 files (mqtt.js and its dependencies
// among them); as one file it takes ~8 MiB less memory and starts faster (fewer files to find and
// read: on a controller's eMMC, or over 9p in the test guest). Measured in docs/operating.md.
//
// What stays outside the bundle: koffi (a native module, loaded from node_modules); files the code
// finds at run time through the package root (package.json, the console's web/ assets, schemas).
// The modules under dist/src stay as they are: the tests import and run them one by one.
// Also aedes for the demo and the tests (dist/vendor/aedes.js; see the end).
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';

const COMMANDS = {
  'ctl-mqtt-gpio': 'dist/src/cli/entry/ctl-mqtt-gpio.js',
  'ctl-mqtt-adc': 'dist/src/cli/entry/ctl-mqtt-adc.js',
  'ctl-mqtt-console': 'dist/src/cli/entry/ctl-mqtt-console.js',
  'ctl-mqtt': 'dist/src/cli/entry/ctl-mqtt.js',
};
const OUT = 'dist/bin';

// The CommonJS dependencies (mqtt.js and what it uses) call require() for Node's builtins; an ES
// module has no require of its own.
const REQUIRE_SHIM =
  "import { createRequire as __ctlCreateRequire } from 'node:module'; const require = __ctlCreateRequire(import.meta.url);";

rmSync(OUT, { recursive: true, force: true }); // no chunk of an older build is left to ship
await build({
  entryPoints: COMMANDS,
  outdir: OUT,
  // What a command imports only when needed (import(): the MQTT client and the runtime, which -j,
  // -J and --help never load) goes into chunks of its own, shared by the commands: the
  // conversions the config editor runs on every page load stay as lean as the modules are.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18.19',
  external: ['koffi'],
  // Dependencies of mqtt.js that a service on Node never runs (see each shim's comment): leaving
  // them out keeps their source text and module records out of every service's memory.
  alias: {
    'worker-timers': './scripts/bundle-shims/worker-timers.cjs',
    socks: './scripts/bundle-shims/socks.cjs',
    // jsonc-parser's `main` is a UMD build that loads its parts with a require() esbuild cannot
    // follow (the bundle would look for them beside itself); its `module` build is plain ESM.
    'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js',
  },
  // Whitespace and syntax only: names stay readable in a bug report's stack trace.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  // The entry's own `#!` line (with the Node options every command runs with) stays first.
  banner: { js: REQUIRE_SHIM },
});
for (const binary of Object.keys(COMMANDS)) chmodSync(`${OUT}/${binary}.js`, 0o755);

// aedes, the demo's broker (not shipped), as one file: aedes imports its own package.json with an
// import attribute (`with { type: 'json' }`) that Node.js 18.19 cannot parse (18.20 can, with an
// ExperimentalWarning); bundled, the JSON is inlined and the demo runs on every Node.js that
// engines allows. src/demo/load-aedes.ts and the tests' aedes helper import it.
await build({
  entryPoints: { aedes: 'aedes' },
  outdir: 'dist/vendor',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18.19',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: REQUIRE_SHIM },
});
