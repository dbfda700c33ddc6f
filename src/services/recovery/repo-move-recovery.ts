import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';

// STUB: to be written.
export async function recoverRepoMove(_db: DB, _config: Config, _payload: unknown): Promise<string> {
  return 'nothing to do';
}
export async function recoverOwnerMove(_db: DB, _config: Config, _payload: unknown): Promise<string> {
  return 'nothing to do';
}
export async function recoverRepoDelete(_db: DB, _config: Config, _payload: unknown): Promise<string> {
  return 'nothing to do';
}
