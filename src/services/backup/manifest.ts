// The archive's layout. Paths are logical, not the dumped instance's: the database and the
// repositories may live outside its data directory, and restore puts them where the target's
// configuration says.

export const MANIFEST = 'manifest.json';
export const DB_ENTRY = 'hearth.db';
export const SECRET_ENTRY = 'secret_key';
export const CONFIG_ENTRY = 'config.toml';
export const REPOS_PREFIX = 'repositories/';

/** Data directory sections, by the --skip-* option that leaves them out. */
export const DATA_SECTIONS = {
  attachments: 'attachments',
  avatars: 'avatars',
  packages: 'packages/blobs',
  // The instance signing keys (GNUPGHOME, SSH key): commits signed before keep verifying.
  signing: 'home',
} as const;

export type ManifestEntry = { path: string; size: number; sha256: string };

export type DumpManifest = {
  format: 'hearth-dump';
  format_version: 1;
  hearth_version: string;
  created: string;
  /** Schema migrations applied in the dumped database. */
  migrations: string[];
  /** Where the instance secret came from; 'environment' means the dump does not hold it. */
  secret: 'file' | 'config' | 'environment' | 'none';
  config: string | null;
  /** Each repository's directory in the archive. */
  repositories: string[];
  skipped: string[];
  entries: ManifestEntry[];
};

export function parseManifest(text: string): DumpManifest {
  const m = JSON.parse(text) as DumpManifest;
  if (m?.format !== 'hearth-dump' || !Array.isArray(m.entries)) throw new Error('manifest.json is not a hearth dump manifest');
  if (m.format_version !== 1) throw new Error(`unsupported dump format version ${String(m.format_version)}`);
  return m;
}
