import { isMapping } from '../../../lib/yaml';
import { WorkflowSyntaxError } from './events';

// strategy.matrix as GitHub (and act's GetMatrixes) expands it: the product of the dimensions in
// file order (the first varies slowest), minus `exclude` (an entry removes every combination it
// agrees with on all its keys), plus `include` (an entry extends every combination it does not
// contradict on an original dimension; one that fits none is a combination of its own).

export type Combination = Record<string, unknown>;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function entries(v: unknown, what: string): Combination[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new WorkflowSyntaxError(`matrix ${what} must be a list`);
  return v.map((e) => {
    if (!isMapping(e)) throw new WorkflowSyntaxError(`matrix ${what} entries must be maps`);
    return e;
  });
}

/** The combinations of a matrix (already evaluated); [] when the job has none. */
export function matrixCombinations(matrix: unknown): Combination[] {
  if (matrix === undefined || matrix === null) return [];
  if (!isMapping(matrix)) throw new WorkflowSyntaxError('strategy.matrix must be a map');
  const dims = Object.entries(matrix).filter(([k]) => k !== 'include' && k !== 'exclude');
  let combos: Combination[] = dims.length ? [{}] : [];
  for (const [key, values] of dims) {
    if (!Array.isArray(values)) throw new WorkflowSyntaxError(`matrix dimension "${key}" must be a list`);
    if (!values.length) throw new WorkflowSyntaxError(`matrix dimension "${key}" is empty`);
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  for (const ex of entries(matrix.exclude, 'exclude')) {
    combos = combos.filter((c) => !Object.entries(ex).every(([k, v]) => same(c[k], v)));
  }
  const dimKeys = new Set(dims.map(([k]) => k));
  const originals = combos.map((c) => ({ ...c }));
  const extra: Combination[] = [];
  for (const inc of entries(matrix.include, 'include')) {
    let fitted = false;
    combos.forEach((c, i) => {
      const fits = Object.entries(inc).every(([k, v]) => !dimKeys.has(k) || same(originals[i]![k], v));
      if (fits) {
        fitted = true;
        Object.assign(c, inc);
      }
    });
    if (!fitted) extra.push({ ...inc });
  }
  const all = [...combos, ...extra];
  if (all.length > 256) throw new WorkflowSyntaxError(`the matrix expands to ${all.length} jobs, more than 256`);
  return all;
}

const valueName = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** ` (a, b)`: the values in the order of their sorted keys, as Gitea's job names show them. */
export function matrixSuffix(combo: Combination): string {
  const names = Object.keys(combo).sort().map((k) => valueName(combo[k])).filter((s) => s !== '');
  return names.length ? ` (${names.join(', ')})` : '';
}
