import type { Compilable, CompiledQuery } from 'kysely';
import type { DB } from './connect';

// Kysely builds and compiles a query anew on each call: for the few small statements every
// page of a kind runs (the repository header's marks, a settings form's branch names) that
// cost more than SQLite running them. A precompiled statement is built once per database with
// a marker in each parameter's place; each call swaps its values in and runs the same SQL text
// (so SQLite's statement cache and PostgreSQL's named statements find it too).

const marker = (i: number): string => `\0precompiled parameter ${i}`;

/**
 * `build(db, ...args)` compiled once per database; each call runs it with its own `args`. Every
 * argument must reach the statement as a bound parameter (a value in where, limit, offset…):
 * the first compile fails loudly when one was folded into the SQL text instead.
 */
export function precompiled<A extends unknown[], R>(arity: A['length'], build: (db: DB, ...args: A) => Compilable<R>): (db: DB, ...args: A) => Promise<R[]> {
  const marks = Array.from({ length: arity }, (_, i) => marker(i));
  const compiled = new WeakMap<DB, CompiledQuery<R>>();
  const compile = (db: DB): CompiledQuery<R> => {
    const query = build(db, ...(marks as A)).compile();
    for (const m of marks) {
      if (!query.parameters.includes(m)) throw new Error(`precompiled: parameter ${marks.indexOf(m)} is not bound in ${query.sql}`);
    }
    compiled.set(db, query);
    return query;
  };
  return async (db, ...args) => {
    const query = compiled.get(db) ?? compile(db);
    const parameters = query.parameters.map((p) => {
      const i = typeof p === 'string' ? marks.indexOf(p) : -1;
      return i < 0 ? p : args[i];
    });
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
