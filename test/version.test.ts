// The version Sluice announces (src/version.ts) is the package's.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SLUICE_VERSION } from '../src/version.js';

it('src/version.ts says the version package.json says', () => {
  expect(SLUICE_VERSION).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
});
