import type { Config } from '../../config/schema';
import type { DB } from '../../db/connect';

/** What one check found: problems that remain, and what --fix changed. */
export type CheckResult = {
  name: string;
  problems: string[];
  fixed: string[];
  /** Said after the problems when --fix would have repaired them. */
  hint?: string;
  /** Why the check has nothing to do on this database engine. */
  skipped?: string;
};

export type Findings = Omit<CheckResult, 'name'>;

export type DoctorContext = {
  config: Config;
  /** Repair what is safe to repair. */
  fix: boolean;
  /** Limit of one `git fsck` in ms (0: none). */
  fsckTimeoutMs: number;
  /** Names this run's directory of moved-aside orphans: <data>/doctor-orphans/<stamp>/. */
  stamp: string;
  signal: AbortSignal;
};

export type DoctorCheck = { name: string; run: (db: DB, ctx: DoctorContext) => Promise<Findings> };

/** Findings of a check whose problems --fix repairs: without --fix they carry the hint. */
export const fixable = (ctx: DoctorContext, problems: string[], fixed: string[] = []): Findings =>
  ({ problems, fixed, hint: problems.length && !ctx.fix ? 'run with --fix to repair' : undefined });

/** Findings of a check that has no counterpart on this engine, with the reason. */
export const skipped = (reason: string): Findings => ({ problems: [], fixed: [], skipped: reason });

/** Findings of a check that only reports. */
export const reportOnly = (problems: string[]): Findings => ({ problems, fixed: [] });
