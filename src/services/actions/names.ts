import { BadRequestError } from '../../lib/errors';

// Gitea's services/secrets ValidateName, used for secrets and variables alike: letters, digits
// and underscores, not starting with a digit, not GITEA_ or GITHUB_ (reserved for the runner's
// own). Names are stored upper-cased, so lookups upper-case too.
const NAME = /^[A-Z_][A-Z0-9_]*$/i;
const RESERVED = /^GIT(EA|HUB)_/i;
// Variables become environment variables of the job, where CI is the runner's: as Gitea, any
// variable name that starts with CI is refused (CIRCLE too: Gitea's check is a prefix).
const CI = /^CI/i;

export function validActionsName(name: string, what: 'secret' | 'variable'): string {
  if (!NAME.test(name) || RESERVED.test(name)) throw new BadRequestError(`invalid ${what} name`);
  return name.toUpperCase();
}

/** A name a variable may be given (created or renamed to); deleting checks the first rules only. */
export function newVariableName(name: string): string {
  const valid = validActionsName(name, 'variable');
  if (CI.test(name)) throw new BadRequestError('env name cannot be ci');
  return valid;
}
