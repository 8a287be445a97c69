import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressGroup } from '../../../../src/console/http/client-address.js';

test('address groups: an IPv4 address is its own, an IPv6 address counts with its /64', () => {
  const cases: Array<[string, string]> = [
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2:3:4:5:6]', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['1:2:3:4:5:6:7::', '1:2:3:4::/64'],
    ['?', '?'],
  ];
  for (const [address, group] of cases) assert.equal(addressGroup(address), group, address);
  assert.notEqual(addressGroup('2001:db8:1:2::1'), addressGroup('2001:db8:1:3::1'), 'the next /64 is another client');
});
