import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('lower_name', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('keep_email_private', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('passwd', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('passwd_hash_algo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('login_source', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('login_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('diff_view_style', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_restricted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('prohibit_login', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_git_hook', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_import_local', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_create_organization', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('hide_activity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visibility', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_repo_creation', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('num_followers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('num_following', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('num_stars', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('num_repos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_unix', 'integer', (c) => c.notNull())
    .addColumn('updated_unix', 'integer', (c) => c.notNull())
    .addColumn('last_login_unix', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('idx_user_type').on('user').column('type').execute();

  await db.schema
    .createTable('email_address')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uid', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('lower_email', 'text', (c) => c.notNull().unique())
    .addColumn('is_activated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('idx_email_address_uid').on('email_address').column('uid').execute();

  await db.schema
    .createTable('access_token')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uid', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_last_eight', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_unix', 'integer', (c) => c.notNull())
    .addColumn('updated_unix', 'integer', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX idx_access_token_uid_name ON access_token (uid, name)`.execute(db);
}
