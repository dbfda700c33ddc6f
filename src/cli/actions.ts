import type { Command } from 'commander';
import { NotFoundError } from '../lib/errors';
import { withHearth } from './admin';
import { CliError, withCommonOptions, type CommonOptions } from './options';

// Gitea's `gitea actions generate-runner-token` (alias grt): the registration token an
// act_runner (or `hearth runner register`) is set up with, printed alone for scripts
// (GITEA_RUNNER_REGISTRATION_TOKEN=$(hearth actions grt)). Like the API's registration-token
// routes it hands out the scope's active token, making one only when there is none.

async function generateRunnerToken(opts: CommonOptions & { scope: string }): Promise<void> {
  const { registrationToken, scopeByName } = await import('../services/actions/registration-tokens');
  await withHearth(opts, async (h) => {
    const scope = await scopeByName(h.db, opts.scope.trim()).catch((err: unknown) => {
      throw err instanceof NotFoundError ? new CliError(`--scope ${opts.scope}: ${err.message}`) : err;
    });
    console.log((await registrationToken(h.db, scope)).token);
  });
}

export function actionsCommand(program: Command): void {
  const actions = program.command('actions').description('manage Actions');
  withCommonOptions(actions.command('generate-runner-token').alias('grt')
    .description('print a token for a runner to register with (the active one of the scope, or a new one)'))
    .option('-s, --scope <scope>', '{owner}[/{repo}]; empty for an instance-wide runner', '')
    .action(generateRunnerToken);
}
