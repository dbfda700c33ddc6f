import { OAuth2Error } from '../../lib/errors';
import { parseScopes, scopeNames, type ScopeSet } from '../../lib/scopes';

// The scopes an application asks for: OpenID Connect's (what the id_token and userinfo tell)
// and, as Gitea since 1.22, personal-token scopes (`read:repository`, `write:issue`, ...)
// that narrow what the access token may do on the API. With none of the latter the token
// acts with the user's full access, as Gitea's do. A name that is neither is refused
// (invalid_scope) rather than ignored: an application must not get more than it showed.

export const OIDC_SCOPES = ['openid', 'profile', 'email', 'groups'] as const;

const isOidc = (name: string): boolean => (OIDC_SCOPES as readonly string[]).includes(name);

/** The names of a `scope` parameter (space-separated; commas too, as Gitea's token forms). */
export const scopeList = (scope: string): string[] => scope.split(/[\s,]+/).filter(Boolean);

/** The requested scope, normalised (each name once, in the order given); throws invalid_scope. */
export function checkRequestedScope(scope: string): string {
  const names = [...new Set(scopeList(scope))];
  const api = names.filter((n) => !isOidc(n));
  const parsed = parseScopes(api);
  if ('invalid' in parsed) throw new OAuth2Error('invalid_scope', `unknown scope: ${parsed.invalid}`);
  return names.join(' ');
}

/** What a token of this grant may do on the API: its token scopes, else everything the user may. */
export function apiScopesOfGrant(scope: string): ScopeSet {
  const parsed = parseScopes(scopeList(scope).filter((n) => !isOidc(n)));
  // Refused at authorization: a grant holding one anyway may do nothing.
  if ('invalid' in parsed) return { all: false, publicOnly: true, granted: new Map() };
  if (parsed.all || parsed.granted.size) return parsed;
  return { all: true, publicOnly: parsed.publicOnly, granted: new Map() };
}

/** For the consent page: each requested scope as people read it. */
export function describeScope(scope: string): string[] {
  const names = scopeList(scope);
  const out: string[] = [];
  if (names.includes('openid')) out.push('Know who you are (your user id)');
  if (names.includes('profile')) out.push('Read your profile: name, user name, avatar, website');
  if (names.includes('email')) out.push('Read your primary e-mail address');
  if (names.includes('groups')) out.push('Read the organizations and teams you belong to');
  const api = scopeList(scope).filter((n) => !isOidc(n));
  if (!api.length) out.push('Act on the API as you: everything your account may do');
  else {
    const parsed = parseScopes(api);
    if (!('invalid' in parsed)) {
      for (const name of scopeNames(parsed)) {
        if (name === 'all') out.push('Act on the API as you: everything your account may do');
        else if (name === 'public-only') out.push('Only public repositories and organizations');
        else {
          const [level, category] = name.split(':');
          out.push(`${level === 'write' ? 'Read and write' : 'Read'} ${category}`);
        }
      }
    }
  }
  return out;
}
