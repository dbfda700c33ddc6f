import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layers point one way: routes and the CLI → services → models (every Kysely query) and
// git → lib. These read the sources, so a query written in a service or a model reaching up
// into express fails here instead of waiting for a review.

const SRC = path.join(__dirname, '..', 'src');

function sources(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(path.join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: path.join(dir, f), text: fs.readFileSync(path.join(SRC, dir, f), 'utf8') }));
}

/** Modules a file imports for their values (`import type` is only a shape and is left out). */
const valueImports = (text: string): string[] =>
  [...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);

const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto)\(|\bsql`/;

describe('layers', () => {
  it('only models (and the database setup) write queries', () => {
    const offenders = ['routes', 'services', 'cli', 'convert', 'git', 'lib', 'runner']
      .flatMap(sources).filter((s) => QUERY.test(s.text)).map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it('routes reach the models only through services (types excepted)', () => {
    const offenders = sources('routes')
      .filter((s) => valueImports(s.text).some((m) => /(^|\/)models\//.test(m))).map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it('models, git and lib never reach up into services, routes or express', () => {
    const offenders = ['models', 'git', 'lib'].flatMap(sources)
      .filter((s) => valueImports(s.text).some((m) => /(^|\/)(services|routes)\/|^express$/.test(m))).map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it('HTTP statuses are chosen in src/lib/errors.ts alone: nothing else makes an AppError of a number', () => {
    const offenders = ['routes', 'services', 'cli', 'convert', 'git', 'lib', 'models', 'runner', 'ssh'].flatMap(sources)
      .filter((s) => s.file !== path.join('lib', 'errors.ts') && /new AppError\(/.test(s.text)).map((s) => s.file);
    expect(offenders).toEqual([]);
  });

  it('reads imports as they are written here (the checks above would pass on nothing otherwise)', () => {
    expect(valueImports("import { a } from '../../models/user';\nimport type { B } from '../models/b';\nimport {\n  c,\n} from 'express';"))
      .toEqual(['../../models/user', 'express']);
    expect(sources('routes').length).toBeGreaterThan(50);
  });
});
