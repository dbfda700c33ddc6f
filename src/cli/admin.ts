import type { Command } from 'commander';
import { closeHearth, openHearth, type Hearth } from '../hearth';
import { createLogger } from '../lib/logger';
import { randomPassword } from '../lib/password';
import { adminSearchUsers } from '../services/user/admin-users';
import { createToken } from '../services/user/tokens';
import { changePassword, createUser, requireUser } from '../services/user/users';
import { configFrom, CliError, type CommonOptions } from './options';

/** Opens (and migrates) the database for one command, closing it whatever happens. */
async function withHearth<T>(opts: CommonOptions, fn: (h: Hearth) => Promise<T>): Promise<T> {
  const h = await openHearth(configFrom(opts), createLogger('warn'));
  try {
    return await fn(h);
  } finally {
    await closeHearth(h);
  }
}


type CreateOptions = CommonOptions & {
  username: string; email: string; password?: string; randomPassword?: boolean;
  admin?: boolean; mustChangePassword?: boolean; accessToken?: boolean;
};

async function createUserCommand(opts: CreateOptions): Promise<void> {
  if (!opts.password && !opts.randomPassword) throw new CliError('one of --password or --random-password is required');
  if (opts.password && opts.randomPassword) throw new CliError('--password and --random-password cannot be used together');
  const password = opts.password ?? randomPassword();
  await withHearth(opts, async (h) => {
    const user = await createUser(h.db, h.config, {
      username: opts.username, email: opts.email, password,
      isAdmin: Boolean(opts.admin), mustChangePassword: Boolean(opts.mustChangePassword),
    });
    if (opts.randomPassword) console.log(`generated random password is '${password}'`);
    if (opts.accessToken) {
      const created = await createToken(h.db, user, 'gitea-admin', ['all']);
      console.log(`Access token was successfully created... ${created.token}`);
    }
    console.log(`New user '${user.name}' has been successfully created!`);
  });
}

async function changePasswordCommand(opts: CommonOptions & { username: string; password: string; mustChangePassword?: boolean }) {
  await withHearth(opts, async (h) => {
    const user = await requireUser(h.db, opts.username);
    await changePassword(h.db, h.config, user, opts.password, opts.mustChangePassword);
    console.log(`${user.name}'s password has been successfully updated!`);
  });
}

async function listUsersCommand(opts: CommonOptions & { admin?: boolean }) {
  await withHearth(opts, async (h) => {
    const { users } = await adminSearchUsers(h.db, { offset: 0, limit: Number.MAX_SAFE_INTEGER }, { isAdmin: opts.admin });
    const rows = [['ID', 'Username', 'Email', 'IsActive', 'IsAdmin', '2FA']]
      .concat(users.map((u) => [String(u.id), u.name, u.email, String(Boolean(u.is_active)), String(Boolean(u.is_admin)), 'false']));
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
  });
}

export function adminCommands(program: Command): void {
  const admin = program.command('admin').description('administrative commands');
  const user = admin.command('user').description('manage users');
  user.command('create').description('create a user (migrates the database first)')
    .requiredOption('--username <name>', 'user name')
    .requiredOption('--email <email>', 'e-mail address')
    .option('--password <password>', 'password')
    .option('--random-password', 'generate a random password and print it')
    .option('--admin', 'make the user a site administrator')
    .option('--must-change-password', 'require a password change at next sign-in')
    .option('--access-token', 'create an access token with scope "all" and print it')
    .option('-c, --config <file>', 'configuration file (TOML)')
    .action(createUserCommand);
  user.command('change-password').description('set a user\'s password')
    .requiredOption('-u, --username <name>', 'user name')
    .requiredOption('-p, --password <password>', 'new password')
    .option('--must-change-password', 'require a password change at next sign-in')
    .option('-c, --config <file>', 'configuration file (TOML)')
    .action(changePasswordCommand);
  user.command('list').description('list users')
    .option('--admin', 'only site administrators')
    .option('-c, --config <file>', 'configuration file (TOML)')
    .action(listUsersCommand);
}
