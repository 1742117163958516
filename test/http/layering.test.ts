// src/http parses requests and shapes answers: what it needs of the database, the engine or the block catalogue comes
// through src/services, so a change below the services cannot reach into the HTTP contracts unnoticed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');
const HTTP = join(SRC, 'http');
const FORBIDDEN = ['db', 'engine', 'blocks'];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** Every relative module a file imports or re-exports (static and dynamic), resolved against src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(SRC, resolve(dirname(file), s)));
}

describe('src/http', () => {
  it('imports nothing from db/, engine/ or blocks/', () => {
    const files = sourceFiles(HTTP);
    expect(files.length).toBeGreaterThan(20);
    const offending = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => FORBIDDEN.includes(target.split(/[\\/]/)[0]!))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
