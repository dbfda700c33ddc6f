import type { Request } from 'express';
import type { QueryParam } from './table';

// Query parameters read as Gitea reads them: absent or unparsable values are "not given".

export function queryString(req: Request, key: string): string | undefined {
  const v = req.query[key];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : undefined;
}

export function queryBool(req: Request, key: string): boolean | undefined {
  const v = queryString(req, key)?.toLowerCase();
  if (v === 'true' || v === '1' || v === 't') return true;
  if (v === 'false' || v === '0' || v === 'f') return false;
  return undefined;
}

export function queryInt(req: Request, key: string): number | undefined {
  const v = queryString(req, key);
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  // Past what a number holds exactly is unparsable too (Gitea's int64 parse fails past its range).
  const n = Number.parseInt(v, 10);
  return Number.isSafeInteger(n) ? n : undefined;
}

// Declarations of the query parameters a route reads, for its row in the route table (the
// swagger lists them) and, through readQuery(), for the handler that reads them.

type Extra = Omit<QueryParam, 'name' | 'type'>;
type Declared<T extends QueryParam['type']> = QueryParam & { type: T };
const declare = <T extends QueryParam['type']>(type: T) => (name: string, extra: Extra = {}): Declared<T> => ({ name, type, ...extra });

export const q = {
  str: declare('string'),
  int: declare('integer'),
  bool: declare('boolean'),
  dateTime: (name: string, extra: Extra = {}): Declared<'string'> => ({ name, type: 'string', format: 'date-time', ...extra }),
  date: (name: string, extra: Extra = {}): Declared<'string'> => ({ name, type: 'string', format: 'date', ...extra }),
  /** A repeated parameter (`?type=a&type=b`), of words unless `items` says otherwise. */
  list: (name: string, extra: Extra & { enum?: readonly string[] } = {}): Declared<'array'> => {
    const { enum: words, items, ...rest } = extra;
    return { name, type: 'array', items: items ?? { type: 'string', ...(words ? { enum: words } : {}) }, collectionFormat: 'multi', ...rest };
  },
};

/** Gitea's paging of lists: `page` (1-based) and `limit` (read by pageOf in pagination.ts). */
export const PAGE = q.int('page');
export const LIMIT = q.int('limit');
export const paging: readonly QueryParam[] = [PAGE, LIMIT];

type Read<T extends QueryParam['type']> = T extends 'integer' ? number : T extends 'boolean' ? boolean : T extends 'array' ? string[] : string;

/** A declared parameter's value as Gitea reads it: absent or unparsable is undefined. */
export function readQuery<P extends QueryParam>(req: Request, p: P): Read<P['type']> | undefined {
  switch (p.type) {
    case 'integer': return queryInt(req, p.name) as Read<P['type']>;
    case 'boolean': return queryBool(req, p.name) as Read<P['type']>;
    case 'array': {
      const v = req.query[p.name];
      const list = (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');
      return list as Read<P['type']>;
    }
    default: return queryString(req, p.name) as Read<P['type']>;
  }
}
