import { expect } from 'vitest';
import { createUser, type TestServer } from './server';

// A browser-like client of the web pages over plain HTTP: keeps cookies, never follows
// redirects by itself (tests look at each 303), and reads a page's CSRF token from its form.

export type FormFields = Record<string, string>;

export class WebClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly s: TestServer) {}

  url(path: string): URL { return new URL(path.replace(/^\//, ''), this.s.hearth.config.server.root_url); }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size && !headers.has('Cookie')) headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(path.startsWith('http') ? path : this.url(path), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim()];
      if (attrs.some((a) => /^\s*max-age=0$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> { return this.fetch(path, { headers }); }

  /** The CSRF token of the first form of a page (GET, which also sets the pre-sign-in cookie). */
  async csrfOf(path: string): Promise<string> {
    const res = await this.get(path);
    const body = await res.text();
    const m = /name="_csrf" value="([^"]+)"/.exec(body) ?? /<meta name="csrf-token" content="([^"]+)"/.exec(body);
    if (!m) throw new Error(`no CSRF token on ${path} (${res.status}): ${body.slice(0, 300)}`);
    return m[1]!;
  }

  /** Posts a form as a browser would; `csrf` from the page at `from` unless given (false: none). */
  async post(path: string, fields: FormFields, opts: { csrf?: string | false; from?: string; headers?: Record<string, string> } = {}): Promise<Response> {
    const token = opts.csrf === false ? undefined : opts.csrf ?? (await this.csrfOf(opts.from ?? path));
    const body = new URLSearchParams({ ...(token ? { _csrf: token } : {}), ...fields });
    return this.fetch(path, { method: 'POST', body: body.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...opts.headers } });
  }

  /** Signs in through the form; asserts the 303 and returns where it leads. */
  async signIn(login: string, password: string, extra: FormFields = {}): Promise<string> {
    const res = await this.post('user/login', { user_name: login, password, ...extra });
    expect(res.status, await res.clone().text()).toBe(303);
    return res.headers.get('location') ?? '';
  }
}

/** A new client signed in as the user (must_change_password users land on the change page). */
export async function signedInClient(s: TestServer, login: string, password: string): Promise<WebClient> {
  const c = new WebClient(s);
  await c.signIn(login, password);
  return c;
}

export type WebUser = Awaited<ReturnType<typeof createUser>> & { web: WebClient };

/**
 * The two users most page tests need, each with a signed-in browser session: `alice`, who owns
 * what the test builds, and `bob`, the other user whose forged posts must change nothing.
 */
export async function ownerAndOther(s: TestServer): Promise<{ alice: WebUser; bob: WebUser }> {
  const [alice, bob] = [await createUser(s, 'alice'), await createUser(s, 'bob')];
  return {
    alice: { ...alice, web: await signedInClient(s, 'alice', alice.password) },
    bob: { ...bob, web: await signedInClient(s, 'bob', bob.password) },
  };
}
