// mqtt.js picks Web Worker timers in a browser and Node's own timers everywhere else; the bundles
// run only on Node, so the worker-timers package (and the Babel runtime it loads) stays out.
'use strict';
module.exports = {
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
};
