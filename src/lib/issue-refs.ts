// Gitea's issue reference patterns (modules/references): `#N` / `!N` in this repository and
// `owner/repo#N` in another, bounded by spaces, brackets, quotes or punctuation.

export type IssueRef = { owner?: string; repo?: string; index: number };

const END = String.raw`(?=$|\s|\)|\]|'|"|[:;,.?!](?:\s|$))`;
const LOCAL = new RegExp(String.raw`(?:^|\s|\(|\[|'|")[#!](\d+)${END}`, 'g');
const CROSS = new RegExp(String.raw`(?:^|\s|\(|\[)([0-9a-zA-Z_.-]+)\/([0-9a-zA-Z_.-]+)[#!](\d+)${END}`, 'g');

/** Unverified references, unique, at most `max`. */
export function findIssueRefs(text: string, max = 50): IssueRef[] {
  const out = new Map<string, IssueRef>();
  for (const m of text.matchAll(LOCAL)) out.set(`#${m[1]}`, { index: Number(m[1]) });
  for (const m of text.matchAll(CROSS)) {
    out.set(`${m[1]!.toLowerCase()}/${m[2]!.toLowerCase()}#${m[3]}`, { owner: m[1]!, repo: m[2]!, index: Number(m[3]) });
  }
  return [...out.values()].filter((r) => Number.isSafeInteger(r.index) && r.index > 0).slice(0, max);
}
