import type { DB } from '../../db/connect';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { getKeyByFingerprint } from '../../models/public-key';
import * as deploy from '../../models/deploy-key';
import type { DeployKeyRow } from '../../models/deploy-key';
import { nowUnix } from '../../lib/time';
import { parseKeyInput } from '../user/keys';
import { recordAudit } from '../audit/record';
import type { RepoAccess } from './repos';

// Deploy keys, as Gitea's models/asymkey/ssh_key_deploy.go: one public_key row per key content
// (key_type 'deploy'), linked to each repository it is added to. A key used as a user key is
// refused, and user keys refuse a deploy key's content (the fingerprint is unique).

type Page = { offset: number; limit: number };

export async function listDeployKeys(db: DB, access: RepoAccess, q: { keyId?: number; fingerprint?: string }, page: Page) {
  return deploy.listDeployKeys(db, { repoId: access.repo.id, ...q, page });
}

export async function getDeployKey(db: DB, access: RepoAccess, id: number): Promise<DeployKeyRow> {
  const key = await deploy.deployKeyById(db, id);
  if (!key || key.repo_id !== access.repo.id) throw new NotFoundError();
  return key;
}

/** POST /repos/{owner}/{repo}/keys, with Gitea's 422s. */
export async function addDeployKey(db: DB, access: RepoAccess, input: { title: string; key: string; read_only?: boolean }): Promise<DeployKeyRow> {
  const parsed = parseKeyInput(input.key);
  const readOnly = input.read_only ?? false;
  const id = await db.transaction().execute(async (trx) => {
    let pkey = await getKeyByFingerprint(trx, parsed.fingerprint);
    if (pkey && pkey.key_type !== 'deploy') throw new InvalidError('Key content has been used as non-deploy key', 'key');
    if (pkey && await deploy.deployKeyExists(trx, { repoId: access.repo.id, keyId: pkey.id })) {
      throw new InvalidError('This key has already been added to this repository', 'key');
    }
    if (await deploy.deployKeyExists(trx, { repoId: access.repo.id, name: input.title })) {
      throw new InvalidError('A key with the same name already exists', 'title');
    }
    const now = nowUnix();
    // The row needs an owner (user(id) foreign key): the repository's, which outlives its members.
    pkey ??= await deploy.insertDeployPublicKey(trx, {
      ownerId: access.owner.id, name: input.title, fingerprint: parsed.fingerprint, content: parsed.content, readOnly, now,
    });
    const row = await deploy.insertDeployKey(trx, {
      keyId: pkey.id, repoId: access.repo.id, name: input.title, fingerprint: parsed.fingerprint, readOnly, now,
    });
    await recordAudit(trx, {
      op: 'repo.deploy_key.add', target: { type: 'deploy_key', id: row.id, name: row.name }, repo: access.repo,
      extra: { fingerprint: row.fingerprint, read_only: readOnly },
    });
    return row.id;
  });
  return (await deploy.deployKeyById(db, id))!;
}

export async function deleteDeployKey(db: DB, access: RepoAccess, id: number): Promise<void> {
  const key = await deploy.deployKeyById(db, id);
  if (!key || key.repo_id !== access.repo.id) throw new NotFoundError();
  await db.transaction().execute(async (trx) => {
    await deploy.deleteDeployKey(trx, key);
    await recordAudit(trx, {
      op: 'repo.deploy_key.remove', target: { type: 'deploy_key', id: key.id, name: key.name }, repo: access.repo,
      extra: { fingerprint: key.fingerprint },
    });
  });
}
