import type { User } from '../../db/schema';
import { NotFoundError } from '../../lib/errors';
import { migrateRepository, type MigrateDeps, type MigrateInput } from '../migrate/migrate';
import { migrationStatus, type MigrationStatus } from '../migrate/progress';

// The web's migration: the form is answered as soon as the request passed its checks (a bad
// address, owner or service re-renders the form); the clone and import go on in the background
// and the progress page reads their status, as Gitea's migration task page does.

/** Starts a migration; resolves with where it goes once planned, rejects with an early refusal. */
export function startMigration(deps: MigrateDeps, doer: User, input: MigrateInput): Promise<{ owner: string; repo: string }> {
  return new Promise((resolve, reject) => {
    let planned = false;
    migrateRepository(deps, doer, input, (target) => { planned = true; resolve(target); }).catch((err: unknown) => {
      if (!planned) return reject(err);
      // Already answered: the progress entry holds the error for the page.
      deps.log.info({ err: err instanceof Error ? err.message : String(err) }, 'migration from the web form failed');
    });
  });
}

/** The migration into owner/repo, for the one who started it and site admins; 404 otherwise. */
export function migrationFor(owner: string, repo: string, viewer: User | null): MigrationStatus {
  const status = migrationStatus(owner, repo);
  if (!status || !viewer || (status.doer_id !== viewer.id && !viewer.is_admin)) throw new NotFoundError();
  return status;
}
