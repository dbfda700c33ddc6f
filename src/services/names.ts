import { InvalidError } from '../lib/errors';

// Gitea's user name rules: alphanumerics, dash, underscore and dot; starts alphanumeric;
// no two specials in a row; no special at the end; some names are reserved for routes.
const VALID = /^[\da-zA-Z][-.\w]*$/;
const INVALID_RUN = /[-._]{2,}|[-._]$/;
const MAX_LENGTH = 40;

const RESERVED = new Set([
  '.', '..', '.well-known', 'admin', 'api', 'assets', 'attachments', 'avatar', 'avatars', 'captcha',
  'commit', 'debug', 'error', 'explore', 'favicon.ico', 'ghost', 'issues', 'login', 'manifest.json',
  'metrics', 'milestones', 'new', 'notifications', 'org', 'pulls', 'raw', 'repo', 'repo-avatars',
  'robots.txt', 'search', 'serviceworker.js', 'ssh_info', 'swagger.v1.json', 'user', 'v2', 'gitea-actions',
]);
const RESERVED_PATTERNS = [/\.keys$/, /\.gpg$/, /\.rss$/, /\.atom$/];

/** Throws a 422 naming the field when `name` may not be a user or organization name. */
export function assertValidUserName(name: string, field = 'username'): void {
  if (!name) throw new InvalidError(`[${field}]: Required`, field);
  if (name.length > MAX_LENGTH) throw new InvalidError(`[${field}]: must be at most ${MAX_LENGTH} characters`, field);
  const lower = name.toLowerCase();
  if (RESERVED.has(lower)) throw new InvalidError(`name is reserved [name: ${name}]`, field);
  if (RESERVED_PATTERNS.some((p) => p.test(lower))) {
    throw new InvalidError(`name pattern is not allowed [pattern: ${name}]`, field);
  }
  if (!VALID.test(name) || INVALID_RUN.test(name)) {
    throw new InvalidError(
      `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`, field,
    );
  }
}

// Deliberately plain: one @, no spaces, a dot-free local part allowed, a domain with no spaces.
const EMAIL = /^[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

export function assertValidEmail(email: string, field = 'email'): void {
  if (!isValidEmail(email)) throw new InvalidError(`e-mail invalid [email: ${email}]`, field);
}

// Gitea's repository name rules: alpha, dash, dot, underscore; a few names and suffixes reserved.
const REPO_VALID = /^[-.\w]+$/;
const REPO_RESERVED = new Set(['.', '..', '-']);
const REPO_RESERVED_PATTERNS = [/\.git$/, /\.wiki$/, /\.rss$/, /\.atom$/];

export function assertValidRepoName(name: string, field = 'name'): void {
  if (!name) throw new InvalidError(`[${field}]: Required`, field);
  if (name.length > 100) throw new InvalidError(`[${field}]: MaxSize`, field);
  if (!REPO_VALID.test(name)) throw new InvalidError(`[${field}]: AlphaDashDot`, field);
  const lower = name.toLowerCase();
  if (REPO_RESERVED.has(lower)) throw new InvalidError(`repo name is reserved [name: ${name}]`, field);
  if (REPO_RESERVED_PATTERNS.some((p) => p.test(lower))) {
    throw new InvalidError(`repo name pattern is not allowed [pattern: ${name}]`, field);
  }
}
