// Which test files the PostgreSQL pass runs (CI's second `npm test`, with TEST_DATABASE_URL set; vitest.config.ts).
// A file behaves differently on PostgreSQL only if it can see TEST_DATABASE_URL: it names the variable, or imports —
// directly or through other test helpers — a file that does (support/database.ts, hence support/app.ts and every test
// that starts an app or a database). Any other file (engine, workflow, sandbox, web units) would run the very same
// checks a second time, so the PostgreSQL pass leaves it out. Derived from the sources: nothing to keep up by hand.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const MARKER = 'TEST_DATABASE_URL';
// Relative specifiers of imports, re-exports and dynamic imports: `from './x.js'`, `import('../y.js')`, `import './z.js'`.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The `*.test.ts` files under `folders` that can see TEST_DATABASE_URL, as paths relative to `root`. */
export function databaseTestFiles(root: string, folders: string[]): string[] {
  // src/ never reads TEST_DATABASE_URL (only tests do), so the walk stays among the tests and their helpers.
  const src = join(resolve(root, 'src'), '/');
  const verdicts = new Map<string, boolean>();
  const seesMarker = (file: string): boolean => {
    const known = verdicts.get(file);
    if (known !== undefined) return known;
    verdicts.set(file, false); // an import cycle between helpers stops here
    const text = readFileSync(file, 'utf8');
    const sees =
      text.includes(MARKER) ||
      [...text.matchAll(RELATIVE_IMPORT)].some((match) => {
        const target = sourceFile(dirname(file), match[1]);
        return target !== undefined && !target.startsWith(src) && seesMarker(target);
      });
    verdicts.set(file, sees);
    return sees;
  };
  return folders
    .flatMap((folder) => testFilesUnder(resolve(root, folder)))
    .filter(seesMarker)
    .map((file) => relative(root, file))
    .sort();
}

function testFilesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The file an import names: `./x.js` written for `./x.ts` (NodeNext style), or a `.ts`/`.mjs`/`.js` file as named. */
function sourceFile(from: string, specifier: string): string | undefined {
  const path = resolve(from, specifier);
  return [path.replace(/\.js$/, '.ts'), path].find((candidate) => /\.(ts|mjs|js)$/.test(candidate) && existsSync(candidate));
}
