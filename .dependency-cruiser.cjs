// The boundaries `npm run lint` holds (ARCHITECTURE.md, decision 0035). Each rule names the floor or
// the boundary it keeps; `npx depcruise --config .dependency-cruiser.cjs apps packages ...` lists
// what breaks them.
// Tests, their helpers and fixtures, and a package's `testing` entry (what other workspaces' tests use).
const TEST_CODE =
  '(\\.(test|spec|testing)\\.tsx?$|(^|/)testing\\.ts$|test-helpers\\.ts$|-fixture\\.ts$|(^|/)test-[^/]*\\.ts$|/global-setup\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle, type-only imports included: a reader can always start at the bottom.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'modules-through-their-service',
      severity: 'error',
      comment:
        'An API module uses another only through its services (modules/<b>/*.service.ts), the interfaces it offers ' +
        '(*.contract.ts) or the interface of the external system it owns (<b>/<b>.provider.ts); its repositories, ' +
        'routes and helpers are its own.',
      from: { path: '^apps/api/src/modules/([^/]+)/', pathNot: '\\.(test|testing)\\.ts$' },
      to: {
        path: '^apps/api/src/modules/[^/]+/',
        pathNot: [
          '^apps/api/src/modules/$1/',
          '^apps/api/src/modules/[^/]+/[^/]+\\.service\\.ts$',
          // The interfaces a module offers others (auth's Accounts, which oauth completes sign-ins
          // through) and the interface of the external system it owns (sms/sms.provider.ts).
          '^apps/api/src/modules/[^/]+/[^/]+\\.contract\\.ts$',
          '^apps/api/src/modules/([^/]+)/\\1\\.provider\\.ts$',
        ],
      },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      comment: 'Packages are the floors the apps stand on: they never import an app.',
      from: { path: '^packages/' },
      to: { path: '^(apps|e2e|bench|deploy|scripts)/' },
    },
    {
      name: 'geom-is-the-bottom-floor',
      severity: 'error',
      comment: "The CAD engine's geom floor (vectors, matrices, OCS, curves, colours, patterns) imports nothing else of the engine.",
      from: { path: '^packages/cad/src/geom/' },
      to: { path: '^packages/cad/src/', pathNot: '^packages/cad/src/geom/' },
    },
    {
      name: 'text-below-display',
      severity: 'error',
      comment: 'Text layout and fonts sit below the display list that draws them.',
      from: { path: '^packages/cad/src/text/' },
      to: { path: '^packages/cad/src/(display|render)/' },
    },
    {
      name: 'writers-beside-display',
      severity: 'error',
      comment: 'The DXF and DWG writers lower the model with the geom floor, never through the display list.',
      from: { path: '^packages/cad/src/(dxf-writer|dwg-writer)/' },
      to: { path: '^packages/cad/src/(display|render)/' },
    },
    {
      name: 'no-test-code-in-product',
      severity: 'error',
      comment: 'Product code never imports a test, a test helper or a fixture.',
      from: { pathNot: [TEST_CODE, '^(e2e|bench|deploy)/'] },
      to: { path: TEST_CODE },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next|\\.next-[^/]*|dist|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.cjs', '.json'],
    },
    combinedDependencies: true,
  },
};
