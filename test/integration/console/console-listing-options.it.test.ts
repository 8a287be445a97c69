/**
 * The packaged console's hardware listing runs the installed binary with the options the
 * service's unit starts it with (CTL_MQTT_OPTS in /etc/default/<service>): with `--sysfs-root`
 * there, it lists the IIO tree the service reads, and the save's check finds the channel's device
 * in it. The binary is the build's (on PATH, as the schema names it), the tree a fake one, the
 * options file a temporary one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hardwareProblems, listHardware } from '../../../src/console/config/hardware-check.js';
import { serviceFromSchema } from '../../../src/console/config/service-definitions.js';
import { SERVICE_FILES } from '../../../src/demo/demo-paths.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../helpers/fake-iio.js';

const ADC_SCHEMA = fileURLToPath(new URL('../../../../schemas/ctl-mqtt-adc.schema.json', import.meta.url));

test("the default listing gets the service's CTL_MQTT_OPTS, so it lists the tree the service reads", async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, index: 3, channels: { voltage0: { raw: 100 } } }]);
  const optionsFile = join(tree.root, 'ctl-mqtt-adc');
  writeFileSync(optionsFile, `# as an admin writes it\nCTL_MQTT_OPTS="--sysfs-root ${tree.root} -T site7"\n`);
  // The schema's command is `ctl-mqtt-adc`, found on PATH as on a controller.
  const bin = join(tree.root, 'bin');
  mkdirSync(bin);
  symlinkSync(SERVICE_FILES.adc.entry, join(bin, 'ctl-mqtt-adc'));
  const path = process.env['PATH'];
  process.env['PATH'] = `${bin}:${path ?? ''}`;
  t.after(() => (process.env['PATH'] = path));
  const service = serviceFromSchema(ADC_SCHEMA, { listingOptionsFile: optionsFile });
  assert.deepEqual(service.listHardware, ['ctl-mqtt-adc', '--list-channels']);
  const answer = await listHardware(service.listHardware, service.listingOptionsFile);
  assert.ok(answer.available, JSON.stringify(answer));
  assert.ok('devices' in answer.list);
  assert.deepEqual(
    answer.list.devices.map((d) => [d.device, d.target]),
    [['iio:device3', `../../../devices/${WB_ADC_PARENT}/iio:device3`]],
  );
  const config = { iio_channels: [{ id: 'loop', match_iio: '2198000.adc', channel_number: 'voltage0', voltage_multiplier: 1 }] };
  assert.deepEqual(hardwareProblems(config, answer.list), []);
});

test('an explicit listing command (the demo, the tests) is used as it is, without an options file', () => {
  const argv = [SERVICE_FILES.adc.entry, '--list-channels', '--sysfs-root', '/srv/x'];
  const service = serviceFromSchema(ADC_SCHEMA, { listHardware: argv, listingOptionsFile: '/nonexistent' });
  assert.deepEqual([service.listHardware, service.listingOptionsFile], [argv, undefined]);
  assert.equal(serviceFromSchema(ADC_SCHEMA).listingOptionsFile, '/etc/default/ctl-mqtt-adc');
});
