import type { DB } from '../db/connect';
import { pingDatabase } from '../models/health';

export type Check = { status: 'pass' | 'fail'; time: string; output?: string };
export type Health = { status: 'pass' | 'fail'; description: string; checks: Record<string, Check[]> };

/** Gitea's /api/healthz shape (draft-inadarei-api-health-check): one entry per dependency. */
export async function checkHealth(db: DB, appName: string): Promise<Health> {
  const time = new Date().toISOString();
  let database: Check = { status: 'pass', time };
  try {
    await pingDatabase(db);
  } catch (err) {
    database = { status: 'fail', time, output: err instanceof Error ? err.message : String(err) };
  }
  return { status: database.status, description: appName, checks: { 'database:ping': [database] } };
}
