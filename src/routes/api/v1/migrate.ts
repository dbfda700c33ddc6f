import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiRepoWithParent } from '../../../convert/repo-view';
import { migrateRepository } from '../../../services/migrate/migrate';
import { requestMirrorSync } from '../../../services/mirror/pull-mirror';
import { doerOf, repoOf } from '../../context';
import { named, parseBody } from '../../validate';

// Gitea's MigrateRepoOptions; a JSON null is Go's zero value, so it counts as not given.
const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);
const flag = opt(z.boolean());
export const migrateSchema = named('MigrateRepoOptions', z.object({
  clone_addr: z.string().min(1),
  repo_name: z.string().min(1).max(100),
  repo_owner: opt(z.string()),
  uid: opt(z.number().int()),
  description: opt(z.string().max(2048)),
  private: flag, mirror: flag, mirror_interval: opt(z.string()),
  auth_username: opt(z.string()), auth_password: opt(z.string()), auth_token: opt(z.string()),
  aws_access_key_id: opt(z.string()), aws_secret_access_key: opt(z.string()),
  service: opt(z.string()), wiki: flag, lfs: flag, lfs_endpoint: opt(z.string()),
  issues: flag, labels: flag, milestones: flag, pull_requests: flag, releases: flag,
}));

/** POST /repos/migrate: runs to completion and answers the new repository (201). */
export async function migrate(req: Request, res: Response): Promise<void> {
  const b = parseBody(migrateSchema, req.body);
  const { config } = req.ctx;
  const access = await migrateRepository(req.ctx.h, doerOf(req), {
    cloneAddr: b.clone_addr, repoName: b.repo_name, repoOwner: b.repo_owner, uid: b.uid,
    description: b.description, private: b.private, mirror: b.mirror, mirrorInterval: b.mirror_interval,
    authUsername: b.auth_username, authPassword: b.auth_password, authToken: b.auth_token,
    awsAccessKeyId: b.aws_access_key_id, awsSecretAccessKey: b.aws_secret_access_key,
    service: b.service, wiki: b.wiki, lfs: b.lfs, lfsEndpoint: b.lfs_endpoint,
    items: {
      issues: !!b.issues, labels: !!b.labels, milestones: !!b.milestones,
      pull_requests: !!b.pull_requests, releases: !!b.releases,
    },
  });
  res.status(201).json(toApiRepoWithParent(config, access, req.ctx.doer));
}

/** POST /repos/{owner}/{repo}/mirror-sync: queues a sync of a pull mirror (200, empty). */
export async function mirrorSync(req: Request, res: Response): Promise<void> {
  await requestMirrorSync(req.ctx.h, repoOf(req));
  res.status(200).end();
}
