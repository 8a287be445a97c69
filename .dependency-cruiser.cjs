// The layer check (`npm run lint`): which folder of src/ may import which. From the top down:
//   src/cli                    the two binaries' entry points and their command line
//   src/gpio, src/adc, src/demo  the drivers (and the demo, which builds its board from their configs)
//   src/hw                     the kernel interfaces (GPIO character device, gpio-sim, IIO sysfs)
//   src/core                   what every driver shares (config, MQTT, persistence, lifecycle)
// A folder imports only from the floors below it; no import cycles anywhere.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-no-layer-above',
      severity: 'error',
      comment: 'src/core is the ground floor: it imports nothing from hw, the drivers, the console or the cli.',
      from: { path: '^src/core/' },
      to: { path: '^src/(hw|gpio|adc|demo|console|cli)/' },
    },
    {
      name: 'hw-imports-no-driver',
      severity: 'error',
      comment: 'src/hw knows no driver: it imports nothing from gpio, adc, demo, console or cli.',
      from: { path: '^src/hw/' },
      to: { path: '^src/(gpio|adc|demo|console|cli)/' },
    },
    {
      name: 'hw-imports-only-core-errors',
      severity: 'error',
      comment: 'Of src/core, src/hw uses only the error type (its failures carry the same codes).',
      from: { path: '^src/hw/' },
      to: { path: '^src/core/', pathNot: '^src/core/errors\\.ts$' },
    },
    {
      name: 'gpio-and-adc-independent',
      severity: 'error',
      comment: 'The two drivers never import each other.',
      from: { path: '^src/(gpio|adc)/' },
      to: { path: '^src/(gpio|adc)/', pathNot: '^src/$1/' },
    },
    {
      name: 'console-knows-only-core',
      severity: 'error',
      comment: 'The web console talks to the services over MQTT and their -j/-J commands: of the code it imports only src/core.',
      from: { path: '^src/console/' },
      to: { path: '^src/(hw|gpio|adc|demo|cli)/' },
    },
    {
      name: 'drivers-import-no-console',
      severity: 'error',
      comment: 'The services never depend on the console.',
      from: { path: '^src/(gpio|adc|hw)/' },
      to: { path: '^src/console/' },
    },
    {
      name: 'drivers-import-no-entry-point',
      severity: 'error',
      comment: 'The drivers and the demo import nothing from src/cli, nor the drivers from the demo.',
      from: { path: '^src/(gpio|adc|demo)/' },
      to: { path: '^src/(cli|demo)/', pathNot: '^src/$1/' },
    },
    {
      name: 'src-imports-no-test-code',
      severity: 'error',
      comment: 'What ships (src/) imports nothing from test/ or bench/, nor a devDependency.',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'src-imports-no-dev-dependency',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unresolvable-import',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
