// mqtt.js reaches a broker through a SOCKS proxy only from its own TCP and TLS transports, which
// the services do not use (src/mqtt/broker-client.ts opens those streams itself); the socks
// package and its IP address parser stay out of the bundles.
'use strict';
class SocksClient {
  constructor() {
    throw new Error('connecting through a SOCKS proxy is not supported');
  }
}
module.exports = { SocksClient };
