import { insertLabel } from '../../../models/label';
import { lockRow } from '../../../db/dialect';
import { insertMilestone, refreshRepoMilestoneCounts } from '../../../models/milestone';
import { nowUnix } from '../../../lib/time';
import { normalizeLabelColor } from '../../issue/labels';
import { unix, type ImportContext } from './context';

// Labels and milestones (Gitea's CreateLabels / CreateMilestones): written page by page, and
// remembered by name so issues and pulls can be attached to them.

/** Sources give "rrggbb" or "#rrggbb"; a color this server would refuse becomes white. */
const color = (c: string | undefined) => {
  try {
    return normalizeLabelColor(c ?? '');
  } catch {
    return '#ffffff';
  }
};

export async function importLabels(ctx: ImportContext): Promise<number> {
  let n = 0;
  for await (const page of ctx.source.getLabels()) {
    await ctx.db.transaction().execute(async (trx) => {
      const now = nowUnix();
      for (const l of page) {
        if (!l.name || ctx.labels.has(l.name)) continue;
        const row = await insertLabel(trx, { repoId: ctx.repo.id }, {
          name: l.name, color: color(l.color), description: l.description ?? '',
          exclusive: !!l.exclusive, archived: !!l.is_archived,
        }, now);
        ctx.labels.set(row.name, row.id);
        n++;
      }
    });
    ctx.log.info({ repo: ctx.repo.id, labels: n }, 'migration: labels imported');
  }
  return n;
}

export async function importMilestones(ctx: ImportContext): Promise<number> {
  let n = 0;
  for await (const page of ctx.source.getMilestones()) {
    await ctx.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'repository', ctx.repo.id);
      for (const m of page) {
        if (!m.title || ctx.milestones.has(m.title)) continue;
        const created = unix(m.created_at) || nowUnix();
        const closed = m.state === 'closed';
        const row = await insertMilestone(trx, {
          repo_id: ctx.repo.id, name: m.title, content: m.description ?? '', is_closed: closed ? 1 : 0,
          deadline_unix: unix(m.due_on), closed_unix: closed ? unix(m.closed_at) || unix(m.updated_at) || created : 0,
          created_unix: created, updated_unix: unix(m.updated_at) || created,
        });
        ctx.milestones.set(row.name, row.id);
        n++;
      }
      await refreshRepoMilestoneCounts(trx, ctx.repo.id);
    });
    ctx.log.info({ repo: ctx.repo.id, milestones: n }, 'migration: milestones imported');
  }
  return n;
}
