// The deployment lint that CI runs (scripts/lint-deploy.ts): the repository's Dockerfile and deploy/compose.yaml pass,
// and each kind of breakage fails it, through the functions and through the command's exit code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintCompose, lintDockerfile } from '../../scripts/lint-deploy.js';

const dockerfile = readFileSync('Dockerfile', 'utf8');
const compose = readFileSync('deploy/compose.yaml', 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'sluice-lint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `text` with `from` replaced by `to`, failing loudly if `from` is not there (so a test cannot pass by not editing). */
function edit(text: string, from: string | RegExp, to: string): string {
  const edited = text.replace(from, to);
  if (edited === text) throw new Error(`edit found nothing to replace: ${String(from)}`);
  return edited;
}

describe('Dockerfile lint', () => {
  it('passes the repository Dockerfile', () => {
    expect(lintDockerfile(dockerfile, process.cwd())).toEqual([]);
  });

  it('fails on a stage that leaves out a module its code imports (an image whose sluice would not start)', () => {
    const broken = edit(dockerfile, /^# The `sluice` command includes.*\nCOPY clients\/typescript\/src .*\n/m, '');
    expect(lintDockerfile(broken, process.cwd())).toContain(
      'stage server: src/cli/main.ts imports clients/typescript/src/cli/commands.js, which the stage does not copy',
    );
    // The web stage builds the app from the shared workflow model.
    const noModel = edit(dockerfile, /^COPY src \.\/src\n(?=COPY clients)/m, '');
    expect(lintDockerfile(noModel, process.cwd()).join('\n')).toMatch(/stage web: web\/src\/.* imports src\/workflow\//);
  });

  it.each([
    ['an unknown instruction', edit(dockerfile, 'FROM ${NODE_IMAGE} AS runtime', 'FORM ${NODE_IMAGE} AS runtime'), /Unknown instruction: FORM/],
    ['a COPY without a destination', edit(dockerfile, 'COPY drizzle ./drizzle', 'COPY drizzle'), /COPY requires at least two arguments/],
    ['a misspelt HEALTHCHECK flag', edit(dockerfile, '--start-period=30s', '--start-perod=30s'), /Unknown flag: start-perod/],
    ['COPY --from of a stage that does not exist', edit(dockerfile, 'COPY --from=web', 'COPY --from=webapp'), /COPY --from=webapp names no build stage/],
    ['a final stage running as root', edit(dockerfile, /^USER node$/m, 'USER root'), /user other than root/],
    ['a final stage without USER', edit(dockerfile, /^USER node\n/m, ''), /user other than root/],
    ['dev dependencies in the runtime image', edit(dockerfile, 'npm ci --omit=dev', 'npm ci'), /npm ci --omit=dev/],
  ])('fails on %s', (_name, broken, message) => {
    expect(lintDockerfile(broken).join('\n')).toMatch(message);
  });
});

describe('compose file lint', () => {
  it('passes deploy/compose.yaml', () => {
    expect(lintCompose(compose)).toEqual([]);
  });

  it.each([
    ['invalid YAML', edit(compose, '  postgres:\n    image:', '  postgres:\n   image:'), /^YAML: /],
    ['a misspelt service key', edit(compose, '    command: ["worker"]', '    comand: ["worker"]'), /\/services\/worker: must NOT have additional properties 'comand'/],
    ['a value of the wrong type', edit(compose, '    restart: unless-stopped\n    environment:\n      POSTGRES_USER', '    restart: [always]\n    environment:\n      POSTGRES_USER'), /\/services\/postgres\/restart: must be string/],
    ['a malformed duration', edit(compose, '  interval: 10s\n  timeout: 5s\n  start_period: 30s', '  interval: ten seconds\n  timeout: 5s\n  start_period: 30s'), /healthcheck\/interval: must match format "duration"/],
    ['an unknown depends_on condition', edit(compose, 'condition: service_completed_successfully', 'condition: service_done'), /depends_on/],
    ['a dependency on a missing service', edit(compose, '      api-2:\n        condition: service_healthy', '      api-3:\n        condition: service_healthy'), /no service named 'api-3'/],
    ['an undeclared named volume', edit(compose, '      - minio-data:/data', '      - minio-files:/data'), /no volume named 'minio-files'/],
    ['an API process without the /ready healthcheck', edit(compose, /  api-2:\n    <<: \*sluice\n    command: \["serve", "--no-worker"\]\n    healthcheck: \*ready-check\n/, '  api-2:\n    <<: *sluice\n    command: ["serve", "--no-worker"]\n'), /api-2\/healthcheck: a `sluice serve` service needs a healthcheck on \/ready/],
  ])('fails on %s', (_name, broken, message) => {
    expect(lintCompose(broken).join('\n')).toMatch(message);
  });
});

describe('lint command (what .ci/run runs)', () => {
  const run = (files: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/lint-deploy.ts', ...files], { encoding: 'utf8' });

  it('exits 0 on the repository files and 1 naming the file and problem when one is broken', () => {
    const passing = run([]);
    expect(passing.status, passing.stderr).toBe(0);

    const brokenDockerfile = join(scratch, 'Dockerfile');
    const brokenCompose = join(scratch, 'compose.yaml');
    writeFileSync(brokenDockerfile, edit(dockerfile, 'FROM ${NODE_IMAGE} AS web', 'FRM ${NODE_IMAGE} AS web'));
    writeFileSync(brokenCompose, edit(compose, '    image: postgres:16-bookworm', '    image: postgres:16-bookworm\n    imagee: typo'));

    const dockerfileFails = run([brokenDockerfile, 'deploy/compose.yaml']);
    expect(dockerfileFails.status).toBe(1);
    expect(dockerfileFails.stderr).toContain(`${brokenDockerfile}: line 12: Unknown instruction: FRM`);

    const composeFails = run(['Dockerfile', brokenCompose]);
    expect(composeFails.status).toBe(1);
    expect(composeFails.stderr).toContain(`${brokenCompose}: /services/postgres: must NOT have additional properties 'imagee'`);
  });
});
