// The layer check (`npm run lint`): which folder of src/ may import which (docs/architecture.md
// draws the same floors). Folders on one row are siblings and never import each other; from the
// top down:
//   src/cli, src/demo           the three binaries, where a program is put together; npm start
//   src/gpio, src/adc           the drivers
//   src/service, src/sim,       the process lifecycle and shared options; the simulator;
//   src/console                 the web console (rooms by concern: common, http, auth, config,
//                               devices; put together by its top files)
//   src/mqtt, src/hw            the MQTT layer and Home Assistant; the kernel interfaces
//   src/core                    the ground: errors, log, time, persistence, the config pipeline
// A folder imports only from the floors below it (and not every one of them: the rules say which);
// no import cycles, between files or folders.
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
      name: 'no-folder-cycle',
      severity: 'error',
      comment:
        'Folders that import each other (core/config <-> mqtt): a loop the file rule cannot see. A folder and a sibling\'s subfolder count as two folders here; to see those loops too: depcruise src --collapse "^src/[^/]+/[^/]+" (how gpio/channels <-> gpio/state was found).',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment: 'src/core is the ground floor: it imports nothing from any other folder of src.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'config-imports-no-mqtt',
      severity: 'error',
      comment:
        "The configuration (the pipeline and each driver's part) is handed its topic-length check where a program is put together (core/config/topic-length.ts): it never imports the MQTT layer.",
      from: { path: '^src/(core|gpio|adc)/config/' },
      to: { path: '^src/mqtt/' },
    },
    {
      name: 'mqtt-imports-only-core',
      severity: 'error',
      comment: 'The MQTT layer (and Home Assistant) knows no driver, service, command line or hardware: of src it imports only core.',
      from: { path: '^src/mqtt/' },
      to: { path: '^src/', pathNot: '^src/(mqtt|core)/' },
    },
    {
      name: 'service-imports-only-mqtt-and-core',
      severity: 'error',
      comment: 'The service shell (lifecycle, reload, start-up deadline, health) runs any driver: it imports only mqtt and core.',
      from: { path: '^src/service/' },
      to: { path: '^src/', pathNot: '^src/(service|mqtt|core)/' },
    },
    {
      name: 'hw-imports-only-core-errors',
      severity: 'error',
      comment:
        'src/hw knows no driver, MQTT, configuration or simulator; of src it uses only the error type (its failures carry the same codes) and the time seam (its timers run on the Time it is given).',
      from: { path: '^src/hw/' },
      to: { path: '^src/', pathNot: '^src/(hw/|core/errors\\.ts$|core/time\\.ts$)' },
    },
    {
      name: 'hw-imports-no-sim',
      severity: 'error',
      comment: 'The simulator sits above the hardware it imitates, never inside it.',
      from: { path: '^src/hw/' },
      to: { path: '^src/sim/' },
    },
    {
      name: 'sim-imports-only-hw-and-core',
      severity: 'error',
      comment: 'The simulator implements the hardware contracts (src/hw) with the ground floor, nothing above.',
      from: { path: '^src/sim/' },
      to: { path: '^src/', pathNot: '^src/(sim|hw|core)/' },
    },
    {
      name: 'only-cli-and-demo-import-sim',
      severity: 'error',
      comment:
        'The simulator is loaded only where a program is put together (src/cli, the demo) and by tests and the bench: never by a service.',
      from: { path: '^src/', pathNot: '^src/(cli|demo|sim)/' },
      to: { path: '^src/sim/' },
    },
    {
      name: 'gpio-and-adc-independent',
      severity: 'error',
      comment: 'The two drivers never import each other.',
      from: { path: '^src/(gpio|adc)/' },
      to: { path: '^src/(gpio|adc)/', pathNot: '^src/$1/' },
    },
    {
      name: 'driver-config-imports-no-runtime',
      severity: 'error',
      comment: "A driver's configuration (loaded by -j/-J and the demo) imports nothing of the driver's runtime.",
      from: { path: '^src/(gpio|adc)/config/' },
      to: { path: '^src/(gpio|adc)/', pathNot: '^src/$1/config/' },
    },
    {
      name: 'drivers-import-no-cli-console-demo-sim',
      severity: 'error',
      comment: 'The drivers build on service, mqtt, hw and core: never on the command line, the console, the demo or the simulator.',
      from: { path: '^src/(gpio|adc)/' },
      to: { path: '^src/(cli|console|demo|sim)/' },
    },
    {
      name: 'console-imports-only-mqtt-and-core',
      severity: 'error',
      comment:
        'The web console talks to the services over MQTT and their -j/-J commands: of the code it imports only mqtt and core, and the match_iio rule (hw/iio/iio-match.ts and its fnmatch, which read nothing), so that its hardware check of a save matches IIO devices exactly as the ADC service does.',
      from: { path: '^src/console/' },
      to: { path: '^src/', pathNot: '^src/(console|mqtt|core)/|^src/hw/iio/(iio-match|fnmatch)\\.ts$' },
    },
    {
      name: 'console-common-room',
      severity: 'error',
      comment:
        'src/console/common/: the rules the page imports as they are: they import nothing of the console. The files at the top of console/ put the rooms together; no room imports them.',
      from: { path: '^src/console/common/' },
      to: { path: '^src/console/', pathNot: '^src/console/common/' },
    },
    {
      name: 'console-http-room',
      severity: 'error',
      comment:
        'src/console/http/: the HTTP plumbing (requests, answers, client addresses, connections, the page files): no other room. The files at the top of console/ put the rooms together; no room imports them.',
      from: { path: '^src/console/http/' },
      to: { path: '^src/console/', pathNot: '^src/console/http/' },
    },
    {
      name: 'console-auth-room',
      severity: 'error',
      comment:
        'src/console/auth/: sessions, passwords and logins: on http/ only. The files at the top of console/ put the rooms together; no room imports them.',
      from: { path: '^src/console/auth/' },
      to: { path: '^src/console/', pathNot: '^src/console/(auth|http)/' },
    },
    {
      name: 'console-config-room',
      severity: 'error',
      comment:
        "src/console/config/: the configuration pages' server side: on http/ and common/, never devices/ or auth/. The files at the top of console/ put the rooms together; no room imports them.",
      from: { path: '^src/console/config/' },
      to: { path: '^src/console/', pathNot: '^src/console/(config|http|common)/' },
    },
    {
      name: 'console-devices-room',
      severity: 'error',
      comment:
        'src/console/devices/: the devices, their live stream and history: on http/ and common/, never config/ or auth/. The files at the top of console/ put the rooms together; no room imports them.',
      from: { path: '^src/console/devices/' },
      to: { path: '^src/console/', pathNot: '^src/console/(devices|http|common)/' },
    },
    {
      name: 'only-cli-imports-cli',
      severity: 'error',
      comment: 'src/cli is the top floor: nothing imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'nothing-imports-demo',
      severity: 'error',
      comment: 'The demo (npm start) is not shipped: nothing imports it.',
      from: { path: '^src/', pathNot: '^src/demo/' },
      to: { path: '^src/demo/' },
    },
    {
      name: 'demo-runs-no-driver-runtime',
      severity: 'error',
      comment:
        "The demo runs the services as child processes: of the drivers it imports only their configuration (and the GPIO service's options).",
      from: { path: '^src/demo/' },
      to: { path: '^src/(gpio|adc)/', pathNot: '^src/(gpio|adc)/config/|^src/gpio/gpio-options\\.ts$' },
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
      // Except the page's import of the rules it shares with the server (src/console/common/control-rules.ts):
      // the build puts that module's compiled file beside the page's modules.
      to: { couldNotResolve: true, pathNot: '^\\./control-rules\\.js$' },
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
