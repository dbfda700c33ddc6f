import type { ApiHandler, ApiReply, ApiRequest } from './fake-forge';
import { ALICE, CAROL, type Story, type StoryPull } from './migrate-story';

// Codebase's XML API (basic auth as account/user with the API key) over a story, in the shapes
// its API documentation and Gitea's Codebase downloader give: milestones, ticket types, tickets
// paged 20 at a time (404 past the last page), ticket notes (the first is the ticket's text),
// merge requests with their comments, a branch's head commit, and the account's users.

type Node = string | number | boolean | null | Node[] | { [k: string]: Node };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `<name type="...">` for a typed scalar (Rails' XML serialisation), nested elements otherwise. */
function el(name: string, v: Node): string {
  if (v === null) return `<${name} nil="true"/>`;
  if (Array.isArray(v)) return `<${name} type="array">${v.join('')}</${name}>`;
  if (typeof v === 'object') return `<${name}>${Object.entries(v).map(([k, x]) => el(k, x)).join('')}</${name}>`;
  const type = typeof v === 'number' ? ' type="integer"' : typeof v === 'boolean' ? ' type="boolean"' : /^\d{4}-\d\d-\d\dT/.test(v) ? ' type="datetime"' : '';
  return `<${name}${type}>${esc(String(v))}</${name}>`;
}
const doc = (name: string, v: Node) => `<?xml version="1.0" encoding="UTF-8"?>\n${el(name, v)}`;

export function codebaseApi(story: Story, opts: { username: string; password: string }): ApiHandler {
  const P = `/${story.repo}-project`;
  const R = `${P}/${story.repo}`;
  const types = ['bug', 'feature', 'docs', 'task'];
  const user = (id: number) => [ALICE, CAROL].find((u) => u.id === id)!;
  const ticket = (i: Story['issues'][number]) => el('ticket', {
    'ticket-id': i.number, summary: i.title, 'ticket-type': i.labels[0] ?? 'task', 'reporter-id': i.user.id, reporter: i.user.login,
    type: { name: i.labels[0] ?? 'task' }, status: { name: i.state === 'open' ? 'New' : 'Completed', 'treat-as-closed': i.state === 'closed' },
    milestone: i.milestone ? { name: i.milestone } : null, 'updated-at': i.updated_at, 'created-at': i.created_at,
  });
  const mr = (p: StoryPull, id: number) => el('merge-request', {
    id, 'source-ref': p.head, 'target-ref': p.base, subject: p.title, status: p.state === 'open' ? 'new' : p.merged ? 'completed' : 'rejected',
    'user-id': p.user.id, 'created-at': p.created_at, 'updated-at': p.closed_at ?? p.updated_at,
    comments: [
      el('comment', { content: p.body, id: id * 100, 'user-id': p.user.id, action: null, 'created-at': p.created_at }),
      ...p.comments.map((c) => el('comment', { content: c.body, id: c.id, 'user-id': c.user.id, action: null, 'created-at': c.created_at })),
      ...(p.merged ? [el('comment', { content: '', id: id * 100 + 99, 'user-id': p.user.id, action: 'merging', 'created-at': p.merged_at })] : []),
    ],
  });
  const branchHead: Record<string, string> = { main: story.shas.main, feat: story.shas.feat, fix: story.shas.fix, old: story.shas.old };

  const route = (req: ApiRequest): string | undefined => {
    const path = decodeURIComponent(req.url.pathname);
    let m: RegExpExecArray | null;
    if (path === '/users') return doc('users', [ALICE, CAROL].map((u) => el('user', { 'email-address': `${u.login}@example.com`, id: u.id, 'last-name': 'X', 'first-name': u.login, username: u.login })));
    if (path === `${P}/milestones`) {
      return doc('ticketing-milestone', story.milestones.map((x) => el('ticketing-milestone', {
        id: 40 + x.id, identifier: `m${x.id}`, name: x.title, deadline: x.due_on?.slice(0, 10) ?? null, description: x.description, status: x.state === 'open' ? 'active' : 'completed',
      })));
    }
    if (path === `${P}/tickets/types`) return doc('ticketing-types', types.map((t, i) => el('ticketing-type', { id: i + 1, name: t })));
    if (path === `${P}/tickets`) {
      const page = Number(req.url.searchParams.get('page') ?? 1);
      const list = story.issues.slice((page - 1) * 20, page * 20);
      return list.length ? doc('tickets', list.map(ticket)) : undefined;
    }
    if ((m = new RegExp(`^${P}/tickets/(\\d+)/notes$`).exec(path))) {
      const i = story.issues[Number(m[1]) - 1];
      if (!i) return undefined;
      const notes = [{ id: i.number * 100, body: i.body, user: i.user, created_at: i.created_at, updated_at: i.created_at }, ...i.comments];
      return doc('ticket-notes', notes.map((n) => el('ticket-note', { content: n.body, 'created-at': n.created_at, 'updated-at': n.updated_at, id: n.id, 'user-id': n.user.id })));
    }
    if (path === `${R}/merge_requests`) return doc('merge-requests', story.pulls.map((p, i) => el('merge-request', { id: 900 + i })));
    if ((m = new RegExp(`^${R}/merge_requests/(\\d+)$`).exec(path))) {
      const p = story.pulls[Number(m[1]) - 900];
      return p ? `<?xml version="1.0" encoding="UTF-8"?>\n${mr(p, Number(m[1]))}` : undefined;
    }
    if ((m = new RegExp(`^${R}/commits/(.+)$`).exec(path))) {
      const sha = branchHead[m[1]!];
      return sha && doc('commits', [el('commit', { ref: sha, message: 'work', 'author-name': user(ALICE.id).login })]);
    }
    return undefined;
  };

  const want = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
  return (req): ApiReply => {
    if (req.headers.authorization !== want) return { status: 401, raw: 'HTTP Basic: Access denied.\n', headers: { 'content-type': 'text/plain' } };
    const xml = route(req);
    return xml ? { raw: xml, headers: { 'content-type': 'application/xml; charset=utf-8' } } : { status: 404, raw: '<error>Not found</error>', headers: { 'content-type': 'application/xml' } };
  };
}
