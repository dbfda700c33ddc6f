import { sql, type Kysely } from 'kysely';

// Never edit a migration once it has landed: add a new numbered one.
// The signing keys of an owner's package repositories (Gitea keeps them as user settings): one
// OpenPGP key (apt, rpm, pacman) and one RSA key (alpine) per owner, made on first use. The
// private half is sealed with the instance secret (lib/secret-box), never stored in the clear.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE package_signing_key (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    public_key TEXT NOT NULL,
    private_key_sealed TEXT NOT NULL,
    fingerprint TEXT NOT NULL DEFAULT '',
    created_unix INTEGER NOT NULL
  )`.execute(db);
  await sql`CREATE UNIQUE INDEX idx_package_signing_key_owner_kind ON package_signing_key (owner_id, kind)`.execute(db);
}
