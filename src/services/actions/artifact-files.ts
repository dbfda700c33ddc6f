import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config/schema';

// Where artifact bytes live: <data_dir>/actions_artifacts/<storage_path>. storage_path is
// relative and made by the server (never from a runner's input as is), so it stays inside.

export function artifactFile(config: Config, storagePath: string): string | null {
  const root = path.resolve(config.server.data_dir, 'actions_artifacts');
  const full = path.resolve(root, storagePath);
  return storagePath && full.startsWith(root + path.sep) ? full : null;
}

export function removeArtifactFile(config: Config, storagePath: string): void {
  const file = artifactFile(config, storagePath);
  if (file) fs.rmSync(file, { force: true });
}
