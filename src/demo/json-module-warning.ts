/**
 * Node.js 18 prints "ExperimentalWarning: Importing JSON modules is an experimental feature" when
 * a module imports a .json file, as aedes does with its own package.json. That warning tells the
 * demo's user nothing: it is dropped, and every other warning still reaches Node's own printer.
 */
const JSON_MODULES = 'Importing JSON modules';
let installed = false;

/** Puts the filter in front of the 'warning' listeners present now (Node's printer); once. */
export function dropJsonModuleWarning(): void {
  if (installed) return;
  installed = true;
  const printers = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'ExperimentalWarning' && warning.message.startsWith(JSON_MODULES)) return;
    for (const print of printers) print.call(process, warning);
  });
}
