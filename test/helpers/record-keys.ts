import { apiFacts, type SchemaFacts } from './swagger';

// Name-for-name comparison of a JSON record with a definition of Gitea's published API: every
// property the definition names is there, nothing else is, and each value has the definition's
// JSON type, nested definitions compared the same way. The swagger says nothing of nulls or of
// fields Go leaves out when empty, so the tables below carry what Gitea's structs do (a pointer
// or nil slice without `omitempty` is sent as null; an `omitempty` one is left out).

/** Fields Gitea sends as null when unset (Go pointers and nil slices without omitempty). */
export const NULLABLE: Record<string, string[]> = {
  Issue: ['milestone', 'assignee', 'assignees', 'closed_at', 'due_date', 'pull_request'],
  PullRequestMeta: ['merged_at'],
  Milestone: ['closed_at', 'due_on'],
  PullReview: ['team'],
  PayloadCommit: ['added', 'removed', 'modified'],
  PayloadCommitVerification: ['signer'],
  ContentsResponse: ['encoding', 'content', 'target', 'url', 'html_url', 'git_url', 'download_url', 'submodule_git_url'],
  Repository: ['topics'],
  PushMirror: ['last_update'],
};

/** Fields Gitea leaves out when empty (`omitempty`): absent is as good as present. */
export const OMITTED_WHEN_EMPTY: Record<string, string[]> = {
  Repository: ['parent', 'permissions', 'internal_tracker', 'external_tracker', 'external_wiki', 'repo_transfer'],
  ContentsResponse: ['last_commit_sha', 'last_committer_date', 'last_author_date', 'last_commit_message', 'lfs_oid', 'lfs_size'],
};

/**
 * Fields Gitea sends beyond its swagger: User's `username`, added by User.MarshalJSON in
 * modules/structs/user.go for older clients.
 */
export const BEYOND_SWAGGER: Record<string, string[]> = {
  User: ['username'],
};

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function wanted(s: SchemaFacts): string | null {
  switch (s.type) {
    case 'integer': case 'number': return 'number';
    case 'string': return 'string';
    case 'boolean': return 'boolean';
    case 'array': return 'array';
    case 'object': return 'object';
    default: return null;
  }
}

const refName = (s: SchemaFacts) => (s.$ref ? s.$ref.replace('#/definitions/', '') : null);

/** The differences of `value` (at `where`) from schema `s`, in `out`. */
function compareValue(value: unknown, s: SchemaFacts, where: string, out: string[]): void {
  const ref = refName(s);
  if (ref) {
    const def = apiFacts().definitions[ref];
    if (!def) return void out.push(`${where}: no definition ${ref}`);
    if (def.properties) return void compareRecord(value, ref, where, out);
    return compareValue(value, def, where, out);
  }
  const want = wanted(s);
  const got = jsonType(value);
  if (want && got !== want) return void out.push(`${where}: ${got}, want ${want}`);
  if (got === 'array' && s.items) (value as unknown[]).forEach((item, i) => compareValue(item, s.items!, `${where}[${i}]`, out));
  if (got === 'object' && typeof s.additionalProperties === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) compareValue(v, s.additionalProperties, `${where}.${k}`, out);
  }
}

/** The differences of `body` from definition `name`; `where` names the place in messages. */
export function compareRecord(body: unknown, name: string, where = name, out: string[] = []): string[] {
  const def = apiFacts().definitions[name];
  if (!def?.properties) return [...out, `${where}: no definition ${name} with properties`];
  if (jsonType(body) !== 'object') return [...out, `${where}: ${jsonType(body)}, want object ${name}`];
  const rec = body as Record<string, unknown>;
  const props = def.properties;
  const optional = OMITTED_WHEN_EMPTY[name] ?? [];
  const extra = BEYOND_SWAGGER[name] ?? [];
  for (const key of Object.keys(props)) if (!(key in rec) && !optional.includes(key)) out.push(`${where}.${key}: missing`);
  for (const key of Object.keys(rec)) if (!(key in props) && !extra.includes(key)) out.push(`${where}.${key}: not in ${name}`);
  for (const [key, s] of Object.entries(props)) {
    if (!(key in rec)) continue;
    if (rec[key] === null) {
      if (!(NULLABLE[name] ?? []).includes(key)) out.push(`${where}.${key}: null, Gitea sends a value`);
      continue;
    }
    compareValue(rec[key], s, `${where}.${key}`, out);
  }
  return out;
}

/** The differences of a flat record from an explicit list of names with their JSON types. */
export function compareFlat(body: unknown, fields: Record<string, string>, where: string): string[] {
  if (jsonType(body) !== 'object') return [`${where}: ${jsonType(body)}, want object`];
  const rec = body as Record<string, unknown>;
  const out: string[] = [];
  for (const key of Object.keys(fields)) if (!(key in rec)) out.push(`${where}.${key}: missing`);
  for (const key of Object.keys(rec)) {
    if (!(key in fields)) out.push(`${where}.${key}: not a field`);
    else if (jsonType(rec[key]) !== fields[key]) out.push(`${where}.${key}: ${jsonType(rec[key])}, want ${fields[key]}`);
  }
  return out;
}
