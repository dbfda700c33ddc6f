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

export type KeywordAction = 'close' | 'reopen';
export type ActionRef = IssueRef & { action: KeywordAction };

// Gitea's issueCloseKeywords and issueReopenKeywords: the keyword, an optional colon, spaces,
// then the reference.
const CLOSE_WORDS = ['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved'];
const REOPEN_WORDS = ['reopen', 'reopens', 'reopened'];
const ACTION = new RegExp(String.raw`(?:^|\s|\(|\[)(${[...CLOSE_WORDS, ...REOPEN_WORDS].join('|')}):?\s+(?:([0-9a-zA-Z_.-]+)\/([0-9a-zA-Z_.-]+))?#(\d+)${END}`, 'gi');

/** References preceded by a closing or reopening keyword, unique, in order; at most `max`. */
export function findActionRefs(text: string, max = 50): ActionRef[] {
  const out = new Map<string, ActionRef>();
  for (const m of text.matchAll(ACTION)) {
    const action: KeywordAction = REOPEN_WORDS.includes(m[1]!.toLowerCase()) ? 'reopen' : 'close';
    const ref: ActionRef = m[2] ? { owner: m[2], repo: m[3]!, index: Number(m[4]), action } : { index: Number(m[4]), action };
    const key = `${(m[2] ?? '').toLowerCase()}/${(m[3] ?? '').toLowerCase()}#${m[4]}`;
    if (Number.isSafeInteger(ref.index) && ref.index > 0) out.set(key, ref);
  }
  return [...out.values()].slice(0, max);
}
