import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { addressToShow } from '../../server/demo.js';

describe('the address the start-up lines name', () => {
  it('is PUBLIC_URL when it is configured, as the docs’ samples show it', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://sandbox.example.net/', PORT: '8080' });
    expect(addressToShow(config.publicUrl, 8080)).toBe('https://sandbox.example.net');
  });

  it('is localhost on the configured port by default', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(addressToShow(config.publicUrl, 8080)).toBe('http://localhost:8080');
  });

  it('is localhost on the bound port when the port was chosen by the system (PORT=0)', () => {
    const config = loadConfig({ PORT: '0' });
    expect(addressToShow(config.publicUrl, 41234)).toBe('http://localhost:41234');
  });
});
