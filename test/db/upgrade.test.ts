import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely, type MigrationProvider } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, pendingMigrations, statementStats, type DB } from '../../src/db/connect';
import { migrations } from '../../src/db/migrations';

// A database made by any earlier release upgrades to the newest schema with its data; and a
// migration that has landed is never edited (its checksum is pinned here: a new migration adds
// a line, a changed one fails).

const LANDED: Record<string, string> = {
  '0001-users-and-tokens.ts': '9213cd3bbd9d0d38896a39ed4099ef0e37c7659251abe287e671bc61fade600d',
  '0002-repositories.ts': '92ed93358ebb74d161373ae0822049e71c73bc050f4f978da85ada96135bfc84',
  '0005-topics.ts': 'ee0f1bf04610dddd885e6a5f1e013d4fe1df43825c1401e5d8d6cfb0366fbc36',
  '0007-organizations.ts': '9ee7de9ce46b2455323f1da7c645cd7e73d1b1307b1a5f59a7dadf80d4e8160e',
  '0008-avatars.ts': '991d17fd9dd278462288e5de2259915cf0c4f9fdec73943bea1aaead65bfea37',
  '0011-issues.ts': '933fbb499efc0c92fbc06ffabff7de6c2a6a856fdb5687f1a7047b66dd51e06b',
  '0012-issue-index.ts': '9e3609f947ebf0ea46954b468c0457e322619fcd6ed91540c8dce48cd6cc1c99',
  '0014-releases.ts': '446a217bef3460c94057e6c8bc719bed73e71da6cc6aa915666bd5bad131fa26',
  '0017-pull-requests.ts': 'c6b21ecf7f4fb2d13755d078d15cf7dc5f715d32f0a6ed9486bf38c4475cbc05',
  '0018-review-teams.ts': 'e63e58b4a5f8e9153655631a9fd668689c4032220b485b447ab9b8b0734222b5',
  '0019-action-comment.ts': 'fc6634d228c61aae864668368f973f7e3bd5aa48e044431a6622f77bcb286f3b',
  '0020-jobs-and-webhooks.ts': '7cef826c4aefb8b36d4d82c267e920a62feda47524c5d92c92ba4f18269243b6',
  '0021-mirrors-and-migrations.ts': 'fa180301b319281051600dcabb25fb60353dca648a978d1ac73b70638c90b278',
  '0022-reaction-original-author.ts': 'a07c1bd9bad7fe52445d99ed60c82c1c601528956514de69617c97ad53d88635',
  '0023-packages.ts': '8b956e547397c30a7af303a04765da2a30b615d0771d741df56dadf42d9d30b5',
  '0024-actions.ts': '5e54f7575bb3caa460f6f9c7cbf2dbbcb70d59e33023bf109cce856554af0135',
  '0025-lfs-and-deploy-keys.ts': 'bdc79be72af83bdf9d129d6377cd89a064294ec181925627fc2883be876c3c02',
  '0026-avatars-oauth2-badges.ts': 'fbfb6e36c259007ce171836e34fbcbba4f8fdcb8edf83016177d412f3226a40f',
  '0027-audit-and-advisories.ts': '1c67beed923b1752dd7ca334ab2f91223c6ece19c6ee687962a27389bd730f10',
  '0028-federation.ts': 'a59c0330d62f4b9c1d7e972d9337f7fbbe8c801a02b6daab5bd9e48b6a680896',
  '0029-repo-licenses.ts': 'e6033276be194dfcfb35f24d221c0bf0cbb8fcccb282f01ef43555c7ebf6bb06',
  '0030-actions-approval.ts': '889fd3d29793b207155423b544ca4608a39420a9bab8bafbddb424a3fcd7b276',
  '0031-mirror-lfs.ts': 'adc8885cefcd85f2198ca187736b010f8fd521563b4ff1f9b102cb088f260e74',
  '0032-job-concurrency.ts': '89a4288d4e937194a3f648d1856100f1711d8bce820fe2dc4bc865fa3a871654',
  '0034-max-parallel.ts': '096c690e534122c79cc70cd98595c72e10b2a5510968879869abb5b88cee0083',
  '0035-hot-query-indexes.ts': '896b0f4860a88e5f062ccbb7cef3efd7ab1f79679a2dddf9dff94fb726eee1eb',
  '0036-pending-ops.ts': '132b68566ede782982ab24a4771852116334956e0a8fea4513a0cfa6d685addb',
  '0037-web-sessions.ts': '069004333fe65e7d9204e0c08f1fe4d81961bed9104ab827fede2e57967b2e06',
  '0038-printed-password.ts': 'dea462b3612d48ce5e23205b45bcb824248cce9cb486547fd56d984e80b6f2db',
  '0039-user-settings.ts': 'af662b031fcf00bbff4f2ba6ce9a125dde76679e4432bfab499b2b5fe59e76d9',
  '0040-oauth2-grants.ts': '81b6c7d91c2cdc11208cd902058f439344788733435e67691287d95d130e52c2',
  '0041-public-key-verified.ts': '199d620a8ff873a601beaa52adb4fda4279d0b0d17ec85851f84a0f3bf339611',
  '0043-deleted-branches.ts': '3e5308ee5f91f543ff6416aafd3fcd4a8935852e079d145d720fca2f727ed261',
  '0045-package-signing-keys.ts': '4e2599836d2137edfee6d382ae3b38f39f08eb734d58328d1327aeb5d986de5f',
  '0048-pull-viewed-files.ts': 'cd4a2c2650729369bfed82b7b119f54bf72a82d8cb577a1365742e7e1846b63d',
  '0049-review-threads.ts': '8dd5d5231a7a8ffaad074374e735ec7b80159d93120c70e75e9179b0156c8b3e',
  '0051-user-redirects.ts': '8f6aa5aa5f83f9783efd49ad69f86ee35ecd60133387d1ead88ad68c2bdd254a',
  '0052-cluster-nodes.ts': '8ed22562fa4c23f1c99370a1f91e72b316be06923a98ccd5632194eb0af3a665',
  '0053-cron-runs.ts': '552d9492f9e28dcd9c882beccc48855378ab7bf525cb7ff9fedaf91190a3ea38',
  '0054-upload-store-state.ts': '63257e557ef5088bccea4910b579deb38964b54d92b4b870e23f007680bf7f13',
  '0055-pending-op-owner.ts': '2534c90da4daa8efe2ec12d7e439a3d63240920acece6dee808514129d915397',
  '0056-node-pid-scope.ts': 'd14cf5cebfa40c45aebe215aa56e7ab0fb927b6f7c7dabc8b743a1c7875ae33d',
};

const DIR = path.join(__dirname, '../../src/db/migrations');
const NAMES = Object.keys(migrations);
const provider: MigrationProvider = { getMigrations: async () => migrations };
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

let open: { db: DB; dir: string }[] = [];
afterEach(async () => {
  for (const o of open) {
    await o.db.destroy();
    fs.rmSync(o.dir, { recursive: true, force: true });
  }
  open = [];
});

function freshDb(): DB {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-upgrade-'));
  const db = openDatabase({ file: path.join(dir, 'hearth.db'), busyTimeout: 5000, cacheDir: path.join(dir, 'cache') });
  open.push({ db, dir });
  return db;
}

async function migrateTo(db: DB, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider, nameComparator: byName }).migrateTo(name);
  if (error) throw error;
}

const raw = (db: DB) => db as unknown as Kysely<Record<string, Record<string, unknown>>>;

/**
 * A user (0001) and, when the tables exist, a repository of theirs (0002) and a workflow run of
 * a fork pull request (0024): data to carry over.
 */
async function seed(db: DB, applied: string[]): Promise<void> {
  await sql`INSERT INTO "user" (lower_name, name, email, created_unix, updated_unix)
    VALUES ('old', 'Old', 'old@example.com', 1, 1)`.execute(db);
  if (applied.includes('0002-repositories')) {
    await sql`INSERT INTO repository (owner_id, owner_name, lower_name, name, default_branch, created_unix, updated_unix)
      VALUES (1, 'Old', 'proj', 'proj', 'main', 1, 1)`.execute(db);
  }
  if (applied.includes('0024-actions')) {
    await sql`INSERT INTO action_run (repo_id, run_index, workflow_id, is_fork_pull_request, status, created_unix, updated_unix)
      VALUES (1, 1, 'ci.yml', 1, 'running', 1, 1)`.execute(db);
  }
}

const appliedNames = async (db: DB) =>
  (await raw(db).selectFrom('kysely_migration').select('name').execute()).map((r) => String(r.name)).sort(byName);

describe('migrations', () => {
  it('landed migrations are never edited (checksums pinned)', () => {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.ts') && f !== 'index.ts').sort();
    const sums = Object.fromEntries(files.map((f) => [f, crypto.createHash('sha256').update(fs.readFileSync(path.join(DIR, f))).digest('hex')]));
    expect(sums).toEqual(LANDED);
    expect(files.map((f) => f.replace(/\.ts$/, ''))).toEqual(NAMES);
  });

  it.each(NAMES.slice(0, -1).map((n) => [n]))('a database at %s upgrades to the newest with its data', async (name) => {
    const db = freshDb();
    await migrateTo(db, name);
    const before = NAMES.slice(0, NAMES.indexOf(name) + 1);
    expect(await appliedNames(db)).toEqual(before);
    await seed(db, before);
    const applied = await migrate(db);
    expect(applied).toEqual(NAMES.slice(before.length));
    expect(await appliedNames(db)).toEqual(NAMES);
    const user = await db.selectFrom('user').select(['name', 'email']).where('lower_name', '=', 'old').executeTakeFirst();
    expect(user).toEqual({ name: 'Old', email: 'old@example.com' });
    if (before.includes('0002-repositories')) {
      expect(await db.selectFrom('repository').select('name').where('owner_id', '=', 1).execute()).toEqual([{ name: 'proj' }]);
    }
    if (before.includes('0024-actions')) {
      // A run from before approvals (0030) does not start waiting for one.
      expect(await db.selectFrom('action_run').select(['status', 'need_approval', 'approved_by']).execute())
        .toEqual([{ status: 'running', need_approval: 0, approved_by: 0 }]);
    }
  });

  it('a database made with 0001, 0002 and 0007 only (before 0005 landed) upgrades', async () => {
    const db = freshDb();
    await migrateTo(db, '0002-repositories');
    await migrations['0007-organizations']!.up(db as unknown as Kysely<unknown>);
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('0007-organizations', ${new Date().toISOString()})`.execute(db);
    await seed(db, ['0001-users-and-tokens', '0002-repositories']);
    // What Kysely does without allowUnorderedMigrations: it refuses this history.
    const strict = await new Migrator({ db, provider, nameComparator: byName }).migrateToLatest();
    expect(String(strict.error)).toMatch(/0005-topics/);

    const applied = await migrate(db);
    expect(applied).toContain('0005-topics');
    expect(applied).not.toContain('0007-organizations');
    expect(await appliedNames(db)).toEqual(NAMES);
    expect(await db.selectFrom('topic').select('id').execute()).toEqual([]);
    expect((await db.selectFrom('repository').select('name').execute()).map((r) => r.name)).toEqual(['proj']);
  });

  it('an up-to-date database is checked with one statement; a newer one is still refused', async () => {
    const db = freshDb();
    await migrate(db);
    const before = statementStats(db).executed;
    expect(await migrate(db)).toEqual([]);
    expect(await pendingMigrations(db)).toEqual([]);
    expect(statementStats(db).executed - before).toBe(2);
    // A database a newer hearth migrated: as many rows, one name unknown here (a downgrade).
    await sql`UPDATE kysely_migration SET name = '9999-from-the-future' WHERE name = ${NAMES.at(-1)!}`.execute(db);
    await expect(migrate(db)).rejects.toThrow(/9999-from-the-future/);
    expect(await pendingMigrations(db)).toEqual([NAMES.at(-1)]);
  });
});
