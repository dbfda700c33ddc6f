import type { Config } from '../../config/schema';
import { compileGlobOrLiteral } from '../../lib/glob';

// Gitea's [service] EMAIL_DOMAIN_ALLOWLIST / EMAIL_DOMAIN_BLOCKLIST: comma-separated glob
// patterns matched against an address's domain, case-insensitively. A non-empty allowlist
// admits only its domains (the blocklist is not read then); otherwise the blocklist refuses its
// own. Self sign-up and added addresses are held to them; a site admin's creation is not, and
// its answer carries a warning, as Gitea's.

type Lists = { allow: RegExp[]; block: RegExp[] };
const compiled = new WeakMap<Config['service'], Lists>();

const globs = (list: string): RegExp[] => list.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean).map((p) => compileGlobOrLiteral(p));

function listsOf(config: Config): Lists {
  let lists = compiled.get(config.service);
  if (!lists) {
    lists = { allow: globs(config.service.email_domain_allowlist), block: globs(config.service.email_domain_blocklist) };
    compiled.set(config.service, lists);
  }
  return lists;
}

function listed(patterns: RegExp[], email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return patterns.some((p) => p.test(domain));
}

export function isEmailDomainAllowed(config: Config, email: string): boolean {
  const { allow, block } = listsOf(config);
  return allow.length ? listed(allow, email) : !listed(block, email);
}

/** The warning a site admin's creation or edit answers with when the address is outside the lists. */
export function emailDomainWarning(config: Config, email: string): string | null {
  if (isEmailDomainAllowed(config, email)) return null;
  return `the domain of user email ${email} conflicts with EMAIL_DOMAIN_ALLOWLIST or EMAIL_DOMAIN_BLOCKLIST`;
}
