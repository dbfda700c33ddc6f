// SQLite schema pieces translated to PostgreSQL's by fixed rules, for scripts/postgres-baseline.ts.
// Anything the rules do not cover throws with the piece named, so a new kind of column, default,
// index expression or trigger is written here on purpose instead of slipping through as SQLite text.

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A column's declared SQLite type as PostgreSQL's. `autoincrement` marks the rowid alias. */
export function columnType(table: string, column: string, declared: string): string {
  const t = declared.trim().toUpperCase();
  if (t === 'INTEGER') return 'BIGINT';
  if (t === 'TEXT') return 'TEXT';
  if (t === 'BLOB') return 'BYTEA';
  if (t === 'REAL') return 'DOUBLE PRECISION';
  const varchar = /^VARCHAR\((\d+)\)$/.exec(t);
  if (varchar) return `VARCHAR(${varchar[1]})`;
  throw new Error(`${table}.${column}: no rule for the SQLite type "${declared}"`);
}

/** A column default as SQLite reports it (PRAGMA table_info's dflt_value): literals only. */
export function defaultValue(table: string, column: string, value: string): string {
  const v = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(v) || /^'(?:[^']|'')*'$/.test(v) || /^null$/i.test(v)) return v;
  if (/^\(-?\d+(\.\d+)?\)$/.test(v)) return v.slice(1, -1);
  if (/^current_timestamp$/i.test(v)) return 'CURRENT_TIMESTAMP';
  throw new Error(`${table}.${column}: no rule for the default ${value}`);
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IS', 'NULL', 'IN', 'BETWEEN', 'TRUE', 'FALSE']);
// Words SQLite reads that PostgreSQL reads otherwise or not at all (LIKE ignores case in SQLite only).
const SQLITE_ONLY = new Set(['GLOB', 'REGEXP', 'MATCH', 'COLLATE', 'LIKE']);
// SQLite functions an index expression or WHERE may use, and PostgreSQL's name for each.
const FUNCTIONS: Record<string, string> = { lower: 'lower', upper: 'upper', length: 'length', abs: 'abs', coalesce: 'coalesce', ifnull: 'coalesce', substr: 'substr' };
const TOKEN = /\s+|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|'(?:[^']|'')*'|\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_]*|==|!=|<>|<=|>=|\|\||[=<>+\-*/(),]/y;

/**
 * An index's column expression or WHERE clause in PostgreSQL's words: identifiers quoted,
 * `==` as `=`, SQLite's function names mapped; an unknown function or token throws.
 */
export function expression(where: string, text: string): string {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`${where}: cannot read "${text.slice(at)}"`);
    const tok = m[0];
    const rest = text.slice(TOKEN.lastIndex);
    if (/^\s+$/.test(tok)) out.push(' ');
    else if (tok === '==') out.push('=');
    else if (/^["`[]/.test(tok)) out.push(quote(tok.slice(1, -1).replace(/""/g, '"')));
    else if (/^[A-Za-z_]/.test(tok)) {
      if (/^\s*\(/.test(rest)) {
        const fn = FUNCTIONS[tok.toLowerCase()];
        if (!fn) throw new Error(`${where}: no rule for the function ${tok}()`);
        out.push(fn);
      } else if (SQLITE_ONLY.has(tok.toUpperCase())) throw new Error(`${where}: no rule for ${tok}`);
      else out.push(KEYWORDS.has(tok.toUpperCase()) ? tok.toUpperCase() : quote(tok));
    } else out.push(tok);
  }
  return out.join('').replace(/ +/g, ' ').trim();
}

/** The top-level comma-separated items of a parenthesized list starting at `open`. */
export function listItems(text: string, open: number): { items: string[]; end: number } {
  const items: string[] = [];
  let depth = 0;
  let start = open + 1;
  let quoteChar = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quoteChar) { if (c === quoteChar) quoteChar = ''; continue; }
    if (c === "'" || c === '"' || c === '`') quoteChar = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) { items.push(text.slice(start, i).trim()); return { items, end: i }; }
    else if (c === ',' && depth === 1) { items.push(text.slice(start, i).trim()); start = i + 1; }
  }
  throw new Error(`unbalanced parentheses in ${text}`);
}

/** The referential action of a foreign key, or '' for SQLite's default (NO ACTION). */
export const action = (what: 'DELETE' | 'UPDATE', value: string) => (value && value.toUpperCase() !== 'NO ACTION' ? ` ON ${what} ${value.toUpperCase()}` : '');
