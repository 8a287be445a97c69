// Lint: the rules that catch what the compiler does not, chiefly promises left unhandled.
// Type-aware (typescript-eslint reads tsconfig.json); `npm run lint` runs it with the layer check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What the console's pages use of the browser (they run there, as plain modules without a bundler). */
const BROWSER_GLOBALS = Object.fromEntries(
  [
    'window',
    'document',
    'fetch',
    'location',
    'history',
    'navigator',
    'EventSource',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'console',
    'URL',
    'URLSearchParams',
    'FormData',
    'sessionStorage',
    'localStorage',
    'HTMLElement',
    'HTMLButtonElement',
    'HTMLInputElement',
    'HTMLFormElement',
    'Event',
    'CustomEvent',
    'requestAnimationFrame',
    'Intl',
    'KeyboardEvent',
    'getComputedStyle',
    'confirm',
    'alert',
    'AbortController',
    'performance',
    'CSS',
    'Node',
    'Element',
    'queueMicrotask',
    'structuredClone',
  ].map((name) => [name, 'readonly']),
);

/** Node's own timers: the services arm theirs through the injected Time (src/core/time.ts). */
const TIMER_MODULES = ['node:timers', 'node:timers/promises', 'timers', 'timers/promises'].map((name) => ({
  name,
  message: 'arm timers through the injected Time (src/core/time.ts)',
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/test/it return promises the runner itself awaits.
          allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'suite', 'test', 'it'] }],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // Time has one seam: the services read clocks and arm timers through an injected Time
  // (src/core/time.ts), so that tests run them on synthetic time. Not the console, the demo and the
  // command lines, which are not services.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/core/time.ts', 'src/console/**', 'src/demo/**', 'src/cli/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval'].map((name) => ({
          name,
          message: 'arm timers through the injected Time (src/core/time.ts)',
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'performance', property: 'now', message: 'read the clock through the injected Time (now)' },
        { object: 'Date', property: 'now', message: 'read the clock through the injected Time (wallNow)' },
        { object: 'process', property: 'hrtime', message: 'read the clock through the injected Time (nowNs)' },
        { object: 'process', property: 'uptime', message: 'read the clock through the injected Time' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: TIMER_MODULES,
          // The real clock is handed down from where a program is put together; below it a part
          // takes its Time as a required parameter, so a test cannot forget to pass one.
          patterns: [
            {
              regex: '(^|/)time\\.js$',
              importNames: ['systemTime'],
              message: 'take the Time as a parameter: only a composition point (cli/, gpio/run.ts, adc/run.ts) hands out systemTime',
            },
          ],
        },
      ],
    },
  },
  // The composition points of the services, where the real clock is chosen.
  {
    files: ['src/gpio/run.ts', 'src/adc/run.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: TIMER_MODULES }] },
  },
  // The console's pages: plain JavaScript, so the recommended rules catch what no compiler sees
  // (an undefined name, an unused variable, a duplicate key).
  {
    files: ['src/console/web/*.js'],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: BROWSER_GLOBALS },
  },
);
