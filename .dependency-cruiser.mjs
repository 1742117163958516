// The architecture's rules on imports (docs/decisions.md, "one direction of dependencies"), checked by
// `npm run lint` over src/ with dependency-cruiser. Type-only imports count: a type cycle ties modules together as
// much as a value cycle, and an `import type` from db/ in http/ is still http knowing the schema.
//
// .dependency-cruiser-known-violations.json lists what src/ broke when these rules came in (regenerate it with
// `npm run lint:deps:baseline`); `--ignore-known` lets those pass and fails on any new one. Once the cycles and
// http → db/engine/blocks imports are gone, empty it (`[]`) so every rule holds without exception.
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'src/ has no import cycle: a module in a cycle cannot be understood, tested or loaded on its own.',
      from: { path: '^src/' },
      // A module loaded on demand (`await import()`, e.g. the OpenTelemetry SDK behind observability/tracing.ts) may
      // type itself against the module that loads it: nothing loads in a circle, and the lazy edge is the point.
      to: { circular: true, dependencyTypesNot: ['dynamic-import'], viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'http-is-thin',
      severity: 'error',
      comment: 'src/http parses, authorizes, calls a service and shapes the answer: it knows no database, engine or block.',
      from: { path: '^src/http/' },
      to: { path: '^src/(db|engine|blocks)/' },
    },
    {
      name: 'workflow-is-pure',
      severity: 'error',
      comment: 'src/workflow is the shared vocabulary (schemas, validation, references): it imports nothing of the rest.',
      from: { path: '^src/workflow/' },
      to: { path: '^src/', pathNot: '^src/workflow/' },
    },
    {
      name: 'engine-has-no-io',
      severity: 'error',
      comment: 'src/engine runs a state through events: it knows no database and no HTTP server.',
      from: { path: '^src/engine/' },
      to: { path: ['^src/(db|http)/', '^node_modules/(drizzle-orm|drizzle-kit|pg|@electric-sql/pglite|hono|@hono)/'] },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    progress: { type: 'none' },
  },
};
