import type { Migration } from 'kysely';
import * as m0001 from './0001-users-and-tokens';
import * as m0002 from './0002-repositories';
import * as m0007 from './0007-organizations';

// Imported statically: the bundled executable has no migrations folder to read at run time.
export const migrations: Record<string, Migration> = {
  '0001-users-and-tokens': m0001,
  '0002-repositories': m0002,
  '0007-organizations': m0007,
};
