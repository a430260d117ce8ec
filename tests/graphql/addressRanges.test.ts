import { describe, expect, it } from 'vitest';
import { refusedRangeOf } from '../../platform/outbound/addressRanges.js';
import { REFUSED_ADDRESSES } from '../support/refusedAddresses.js';

describe('the address ranges outgoing calls never reach', () => {
  for (const [kind, addresses] of Object.entries(REFUSED_ADDRESSES)) {
    it(`refuses ${kind} addresses, IPv4-mapped and embedded forms included`, () => {
      for (const address of addresses) expect(refusedRangeOf(address), address).toBe(kind);
    });
  }

  it('lets public addresses through, in IPv4, IPv6 and IPv4-mapped forms', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '93.184.215.14',
      '100.63.255.255', // just below carrier-grade NAT
      '100.128.0.0', // just above
      '172.15.255.255',
      '172.32.0.0',
      '169.253.255.255',
      '223.255.255.255',
      '2606:4700:4700::1111',
      '2a00:1450:4007:80e::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:0808:0808::1',
    ])
      expect(refusedRangeOf(address), address).toBeNull();
  });

  it('refuses what is not an IP address at all', () => {
    expect(refusedRangeOf('localhost')).toBe('reserved');
    expect(refusedRangeOf('')).toBe('reserved');
  });
});
