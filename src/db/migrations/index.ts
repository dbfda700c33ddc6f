import type { Migration } from 'kysely';
import * as m0001 from './0001-users-and-tokens';

// Imported statically: the bundled executable has no migrations folder to read at run time.
export const migrations: Record<string, Migration> = {
  '0001-users-and-tokens': m0001,
};
