/** The device model moved to the MQTT layer (the console uses it too); the demo's name stays. */
export * from '../core/mqtt/device-view-model.js';
