import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TestServer } from './server';
import type { WebClient } from './web-client';

// OAuth2 fixtures: an application made through the API, PKCE pairs, the consent form posted as
// a browser would, and the token endpoint called as a client would.

export type OAuthApp = { id: number; client_id: string; client_secret: string; redirect_uris: string[]; confidential_client: boolean };

export async function createOAuthApp(
  s: TestServer, owner: { username: string; password: string }, opts: { name?: string; redirectUris: string[]; confidential?: boolean; trusted?: boolean },
): Promise<OAuthApp> {
  const res = await s.request('api/v1/user/applications/oauth2', {
    method: 'POST', auth: { basic: [owner.username, owner.password] },
    json: {
      name: opts.name ?? `app-${crypto.randomBytes(3).toString('hex')}`, redirect_uris: opts.redirectUris,
      confidential_client: opts.confidential ?? true, skip_secondary_authorization: opts.trusted ?? false,
    },
  });
  if (res.status !== 201) throw new Error(`creating an OAuth2 app: ${res.status} ${await res.text()}`);
  return (await res.json()) as OAuthApp;
}

/** A verifier and its S256 challenge (RFC 7636). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

export type AuthorizeQuery = Record<string, string>;

export const authorizePath = (q: AuthorizeQuery): string => `login/oauth/authorize?${new URLSearchParams({ response_type: 'code', ...q }).toString()}`;

/** The consent page's form fields, read from the page as a browser would submit them. */
export function consentFields(page: string): Record<string, string> {
  const form = /<form method="post" action="[^"]*\/login\/oauth\/grant">([\s\S]*?)<\/form>/.exec(page);
  if (!form) throw new Error(`no consent form on the page: ${page.slice(0, 400)}`);
  const fields: Record<string, string> = {};
  for (const m of form[1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = unescape(m[2]!);
  return fields;
}

const unescape = (v: string): string => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Opens the consent page and grants it; the redirect's URL (code and state, or an error). */
export async function authorizeAndGrant(c: WebClient, q: AuthorizeQuery, granted = 'true'): Promise<URL> {
  const page = await c.get(authorizePath(q));
  const text = await page.text();
  if (page.status === 303) return new URL(page.headers.get('location')!);
  expect(page.status, text.slice(0, 400)).toBe(200);
  const res = await c.post('login/oauth/grant', { ...consentFields(text), granted }, { csrf: consentFields(text)._csrf });
  expect(res.status, await res.clone().text()).toBe(303);
  return new URL(res.headers.get('location')!);
}

export async function codeFor(c: WebClient, q: AuthorizeQuery): Promise<string> {
  const back = await authorizeAndGrant(c, q);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code in ${back.toString()}`);
  return code;
}

/** POST /login/oauth/access_token, form-encoded (or JSON), with Basic client credentials if given. */
export async function tokenRequest(
  s: TestServer, form: Record<string, string>, opts: { basic?: [string, string]; json?: boolean } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { 'Content-Type': opts.json ? 'application/json' : 'application/x-www-form-urlencoded' };
  if (opts.basic) headers.Authorization = `Basic ${Buffer.from(`${opts.basic[0]}:${opts.basic[1]}`).toString('base64')}`;
  const res = await s.request('login/oauth/access_token', {
    method: 'POST', headers, body: opts.json ? JSON.stringify(form) : new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}
