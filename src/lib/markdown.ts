import type MarkdownIt from 'markdown-it';
import { markdownIt, markdownItEmoji } from './lazy-require';
import { sanitizeRendered } from './markdown-sanitize';

// Markdown to HTML as Gitea's renderer outputs it, on markdown-it: user HTML passes through
// sanitize-html (markdown-sanitize.ts: what Gitea allows, nothing that runs), dangerous link
// schemes are dropped, links get rel="nofollow", headings get `user-content-` ids, emoji
// shortcodes (`:+1:`) become emoji, `- [ ]` items checkboxes, and `#N` / `owner/repo#N` /
// `@user` in text (outside links and code) become links.

type Token = ReturnType<MarkdownIt['parse']>[number];
type State = { tokens: Token[]; Token: new (type: string, tag: string, nesting: -1 | 0 | 1) => Token; env: RenderEnv };

export type RenderEnv = {
  /** Absolute base (ending in '/') that relative links resolve against; '' for none. */
  linkBase: string;
  /** `<root_url><owner>/<repo>/` issue references point into; null: references stay text. */
  repoBase: string | null;
  rootUrl: string;
  /** Lower-case names of users that mentions may link to. */
  mentionable: ReadonlySet<string>;
};

// Gitea's boundaries: a reference starts the text or follows a space or an opening bracket,
// and ends the text or precedes a space, punctuation, a closing bracket or a final dot.
const END = String.raw`(?=$|[\s,:;!?'")\]]|\.(?:\s|$))`;
const MENTION = String.raw`@([\w-](?:[\w.-]*[\w-])?)`;
const ISSUE = String.raw`(?:([\w.-]+)\/([\w.-]+))?#(\d+)`;
const REF_RE = new RegExp(String.raw`(^|[\s(\[])(?:${MENTION}|${ISSUE})${END}`, 'g');
const MENTION_RE = new RegExp(String.raw`(?:^|[\s(\[])${MENTION}${END}`, 'gm');

let instance: MarkdownIt | null = null;

/** Loaded on first use: the parser is not needed to start serving. */
function parser(): MarkdownIt {
  if (instance) return instance;
  const md = markdownIt()({ html: true, linkify: true, breaks: false, typographer: false });
  md.use(markdownItEmoji().full);
  md.core.ruler.push('hearth_task_lists', (state) => taskLists(state as unknown as State));
  md.core.ruler.push('hearth_refs', (state) => linkReferences(state as unknown as State));
  md.core.ruler.push('hearth_heading_ids', (state) => headingIds(state as unknown as State));
  md.core.ruler.push('hearth_link_attrs', (state) => linkAttrs(state as unknown as State));
  instance = md;
  return md;
}

export function renderMarkdown(text: string, env: RenderEnv): string {
  return sanitizeRendered(parser().render(text, env));
}

/** Names written as `@name` in the text, lower-cased and unique, for a batch existence check. */
export function mentionCandidates(text: string, max = 100): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(MENTION_RE)) {
    out.add(m[1]!.toLowerCase());
    if (out.size >= max) break;
  }
  return [...out];
}

function linkToken(state: State, href: string, label: string, cls: string): Token[] {
  const open = new state.Token('link_open', 'a', 1);
  open.attrs = [['href', href], ['class', cls]];
  const text = new state.Token('text', '', 0);
  text.content = label;
  return [open, text, new state.Token('link_close', 'a', -1)];
}

/** Splits one text token around its references; null when it has none. */
function splitText(state: State, token: Token): Token[] | null {
  const env = state.env;
  const src = token.content;
  const out: Token[] = [];
  let last = 0;
  const pushText = (s: string) => {
    if (!s) return;
    const t = new state.Token('text', '', 0);
    t.content = s;
    out.push(t);
  };
  for (const m of src.matchAll(REF_RE)) {
    const [whole, lead, user, owner, repo, num] = m;
    const start = m.index! + lead!.length;
    let link: Token[] | null = null;
    if (user !== undefined) {
      if (env.mentionable.has(user.toLowerCase())) link = linkToken(state, `${env.rootUrl}${user}`, `@${user}`, 'mention');
    } else if (owner && repo) {
      link = linkToken(state, `${env.rootUrl}${owner}/${repo}/issues/${num}`, `${owner}/${repo}#${num}`, 'ref-issue');
    } else if (env.repoBase) {
      link = linkToken(state, `${env.repoBase}issues/${num}`, `#${num}`, 'ref-issue');
    }
    if (!link) continue;
    pushText(src.slice(last, start));
    out.push(...link);
    last = m.index! + whole.length;
  }
  if (!out.length) return null;
  pushText(src.slice(last));
  return out;
}

function linkReferences(state: State): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children: Token[] = [];
    let depth = 0;
    for (const child of block.children) {
      if (child.type === 'link_open') depth++;
      if (child.type === 'link_close') depth--;
      const parts = depth === 0 && child.type === 'text' ? splitText(state, child) : null;
      if (parts) children.push(...parts);
      else children.push(child);
    }
    block.children = children;
  }
}

/** GitHub-style anchors, prefixed as Gitea does so they cannot clash with the page's ids. */
function headingIds(state: State): void {
  const seen = new Map<string, number>();
  state.tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const inline = state.tokens[i + 1];
    const text = (inline?.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');
    const base = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    t.attrSet('id', `user-content-${n ? `${base}-${n}` : base}`);
  });
}

const ABSOLUTE = /^(?:[a-z][a-z\d+.-]*:|\/\/|#|\/)/i;

/** rel="nofollow" on every link; relative links and images resolve against the context. */
function linkAttrs(state: State): void {
  const base = state.env.linkBase;
  const visit = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.children) visit(t.children);
      const attr = t.type === 'link_open' ? 'href' : t.type === 'image' ? 'src' : null;
      if (!attr) continue;
      const url = t.attrGet(attr);
      if (base && url && !ABSOLUTE.test(url)) t.attrSet(attr, base + url.replace(/^\.\//, ''));
      if (t.type === 'link_open') t.attrSet('rel', 'nofollow');
    }
  };
  visit(state.tokens);
}

const TASK = /^\[([ xX])\]\s/;

/** GitHub's task lists: a list item opening with `[ ]` or `[x]` shows a (disabled) checkbox. */
function taskLists(state: State): void {
  const tokens = state.tokens;
  tokens.forEach((t, i) => {
    if (t.type !== 'inline' || tokens[i - 1]?.type !== 'paragraph_open' || tokens[i - 2]?.type !== 'list_item_open') return;
    const first = t.children?.[0];
    const m = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!m || !first) return;
    first.content = first.content.slice(m[0].length);
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" disabled${m[1] === ' ' ? '' : ' checked'}> `;
    t.children!.unshift(box);
    tokens[i - 2]!.attrJoin('class', 'task-list-item');
    for (let j = i - 3; j >= 0; j--) {
      const open = tokens[j]!;
      if ((open.type === 'bullet_list_open' || open.type === 'ordered_list_open') && open.level === tokens[i - 2]!.level - 1) {
        if (!(open.attrGet('class') ?? '').includes('contains-task-list')) open.attrJoin('class', 'contains-task-list');
        break;
      }
    }
  });
}
