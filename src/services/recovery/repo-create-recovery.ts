import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';

// STUB: to be written.
export async function recoverRepoCreate(_db: DB, _config: Config, _payload: unknown): Promise<string> {
  return 'nothing to do';
}
