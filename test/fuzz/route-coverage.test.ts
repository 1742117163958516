// The fuzz list must name every route the app serves: a route added without a fuzz entry fails here, naming it.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import type { AppContext } from '../../src/services/app-context.js';
import { FUZZ_ROUTES } from './support/routes.js';

/** Method + path of every handler the app registers; middleware (`ALL`) is not a route of its own. */
function registeredRoutes(): string[] {
  // Building the app only wires handlers; none of them runs, so no context is needed.
  const app = createApp({} as AppContext);
  const routes = app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`);
  return [...new Set(routes)].sort();
}

describe('the fuzz route list', () => {
  it('covers every route the app registers, and names no route that does not exist', () => {
    const registered = registeredRoutes();
    const fuzzed = [...new Set(FUZZ_ROUTES.map((r) => `${r.method} ${r.pattern}`))].sort();
    expect(registered.length).toBeGreaterThan(50);
    expect(registered.filter((r) => !fuzzed.includes(r)), 'routes the fuzz does not cover').toEqual([]);
    expect(fuzzed.filter((r) => !registered.includes(r)), 'fuzz entries for routes that do not exist').toEqual([]);
    expect(fuzzed).toHaveLength(FUZZ_ROUTES.length);
  });
});
