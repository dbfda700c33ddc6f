import type { Command } from 'commander';
import { closeHearth, DatabaseOutdatedError, openHearth, type Hearth } from '../hearth';
import { createLogger } from '../lib/logger';
import { CliError, existingInstanceConfig, withCommonOptions, type CommonOptions } from './options';
import { badgeCommands } from './admin-badge';
import { advisoryCommands } from './admin-advisories';
import { repoAdminCommands } from './admin-repos';
import { dbAdminCommands } from './admin-db';

/**
 * Opens an existing, up-to-date database for one command, closing it whatever happens. As
 * Gitea's CLI, an admin command never migrates: a server of the previous version may be using it.
 */
export async function withHearth<T>(opts: CommonOptions, fn: (h: Hearth) => Promise<T>): Promise<T> {
  const h = await openHearth(existingInstanceConfig(opts), createLogger('warn'), { migrate: false }).catch((err: unknown) => {
    throw err instanceof DatabaseOutdatedError ? new CliError(err.message) : err;
  });
  try {
    return await fn(h);
  } finally {
    await closeHearth(h);
  }
}

type UserActions = typeof import('./admin-user-actions');

/**
 * A command's action, from admin-user-actions.ts: loaded (with the services it calls) when the
 * command runs, so that a server's start never evaluates them.
 */
const action = <K extends keyof UserActions>(name: K) => async (...args: Parameters<UserActions[K]>): Promise<void> => {
  const run = (await import('./admin-user-actions'))[name] as (...a: Parameters<UserActions[K]>) => Promise<void>;
  await run(...args);
};

export function adminCommands(program: Command): void {
  const admin = program.command('admin').description('administrative commands');
  const user = admin.command('user').description('manage users');
  withCommonOptions(user.command('create').description('create a user (in an existing database: see migrate)'))
    .option('--username <name>', 'user name')
    .option('--name <name>', 'user name (deprecated: use --username)')
    .requiredOption('--email <email>', 'e-mail address')
    .option('--password <password>', 'password')
    .option('--random-password', 'generate a random password and print it')
    .option('--random-password-length <n>', 'length of the generated password (default 20)')
    .option('--admin', 'make the user a site administrator')
    .option('--restricted', 'make a restricted user account')
    .option('--must-change-password [bool]', 'require a password change at first sign-in (default: true, except for the first account; --must-change-password=false)')
    .option('--access-token', 'create an access token and print it')
    .option('--access-token-name <name>', 'name of that token (default gitea-admin)')
    .option('--access-token-scopes <list>', 'its scopes, comma-separated, as the API takes them (default all)')
    .action(action('createUserCommand'));
  withCommonOptions(user.command('change-password').description('set a user\'s password'))
    .requiredOption('-u, --username <name>', 'user name')
    .requiredOption('-p, --password <password>', 'new password')
    .option('--must-change-password [bool]', 'require a password change at next sign-in (default: true; --must-change-password=false)')
    .action(action('changePasswordCommand'));
  withCommonOptions(user.command('list').description('list users'))
    .option('--admin', 'only site administrators')
    .action(action('listUsersCommand'));
  withCommonOptions(user.command('delete').description('delete a user by id, name or email'))
    .option('--id <id>', 'ID of the user to delete')
    .option('-u, --username <name>', 'user name of the user to delete')
    .option('-e, --email <email>', 'email of the user to delete')
    .option('--purge', 'also delete their repositories and organizations they are the last owner of')
    .action(action('deleteUserCommand'));
  withCommonOptions(user.command('generate-access-token').description('generate an access token for a user'))
    .option('-u, --username <name>', 'user name')
    .option('-t, --token-name <name>', 'token name', 'gitea-admin')
    .option('--scopes <list>', 'comma-separated scopes, as the API takes them (e.g. all, read:repository)')
    .option('--raw', 'print only the token')
    .action(action('generateTokenCommand'));
  withCommonOptions(user.command('must-change-password').description('set the must-change-password flag of users or all users'))
    .argument('[users...]', 'user names')
    .option('-A, --all', 'all users, except those given with --exclude')
    .option('-e, --exclude <names>', 'users left unchanged (repeatable, comma-separated)',
      (v: string, prev: string[]) => prev.concat(v.split(',')), [] as string[])
    .option('--unset', 'clear the flag instead of setting it')
    .action(action('mustChangePasswordCommand'));
  badgeCommands(admin);
  advisoryCommands(admin);
  repoAdminCommands(admin);
  dbAdminCommands(admin);
}
