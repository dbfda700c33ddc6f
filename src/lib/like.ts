/**
 * A LIKE pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally: use it with
 * `ESCAPE '\'` (SQLite has no default escape character).
 */
export const likeContaining = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
