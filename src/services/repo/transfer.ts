import type { DB } from '../../db/connect';
import type { Repository, Team, User } from '../../db/schema';
import { repoDir, repoExists } from '../../git/repo';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { isBlockedBy } from '../../models/blocking';
import { deleteCollaborationsOf, listCollaboratorIds, upsertCollaboration } from '../../models/collaboration';
import { deleteRedirect, getRepoById, getRepoByOwnerAndName, setRedirect, updateRepo } from '../../models/repo';
import { bumpUserRepos } from '../../models/repo-owner';
import { deleteTransfer, getPendingTransfer, insertTransfer } from '../../models/repo-transfer';
import { isOrgMember } from '../../models/team-access';
import { addTeamRepo, canCreateOrgRepo, getTeamsByIds, orgMembersAmong, removeOrgTeamRepos } from '../../models/team-rights';
import { getUserById, getUserByName } from '../../models/user';
import { ACCESS, accessMode, ORG_TYPE } from '../permissions';
import { accessOf, type RepoAccess } from './repos';
import { markWatch } from './stars';
import { VISIBILITY } from '../visibility';
import { emit } from '../events/bus';
import { recordAudit, repoTarget } from '../audit/record';
import { inTransactionWithMoves, repoAndWikiMoves } from './dir-moves';
import { type Hearth, withDb } from '../../hearth';

export type PendingTransfer = { doer: User; recipient: User; teams: Team[] };

const newOwnerMissing = () => new NotFoundError('The new owner does not exist or cannot be found');

/** The new owner by name; private organizations the caller is not in do not exist for them. */
async function recipientOf(db: DB, doer: User, name: string): Promise<User> {
  const owner = await getUserByName(db, name);
  if (!owner) throw newOwnerMissing();
  if (owner.type === ORG_TYPE && owner.visibility === VISIBILITY.private && !doer.is_admin
    && !(await isOrgMember(db, owner.id, doer.id))) throw newOwnerMissing();
  return owner;
}

/** Teams to give the repository to: only for organizations, and only their own teams. */
async function teamsFor(db: DB, owner: User, ids: number[] | undefined): Promise<Team[]> {
  if (ids === undefined) return [];
  if (owner.type !== ORG_TYPE) throw new InvalidError('Teams can only be added to organization-owned repositories', 'team_ids');
  const teams = await getTeamsByIds(db, ids);
  for (const id of ids) {
    const team = teams.find((t) => t.id === id);
    if (!team) throw new InvalidError(`team ${id} not found`, 'team_ids');
    if (team.org_id !== owner.id) throw new ForbiddenError(`team ${id} belongs not to org ${owner.id}`);
  }
  return teams;
}

async function assertNameFree(h: Hearth, owner: User, repo: Repository): Promise<void> {
  const taken = await getRepoByOwnerAndName(h.db, owner.id, repo.name);
  if (taken || repoExists(repoDir(h.config.repository.root, owner.name, repo.name))) {
    throw new InvalidError(`repository already exists [uname: ${owner.name}, name: ${repo.name}]`, 'new_owner');
  }
}

/** May `user` create repositories in `owner` (and so take a transfer without asking)? */
async function mayCreateIn(db: DB, user: User, owner: User): Promise<boolean> {
  if (user.is_admin || user.id === owner.id) return true;
  return owner.type === ORG_TYPE && canCreateOrgRepo(db, owner.id, user.id);
}

/** Rows that follow the owner: collaborators who are now owners or members, teams, counts, redirects. */
async function moveRows(db: DB, doer: User, repo: Repository, from: User, to: User, teams: Team[]): Promise<void> {
  await updateRepo(db, repo.id, { owner_id: to.id, owner_name: to.name });
  const collaborators = await listCollaboratorIds(db, repo.id);
  const absorbed = to.type === ORG_TYPE ? await orgMembersAmong(db, to.id, collaborators) : [];
  await deleteCollaborationsOf(db, repo.id, [...absorbed, ...collaborators.filter((id) => id === to.id)]);
  if (from.type === ORG_TYPE) await removeOrgTeamRepos(db, from.id, repo.id);
  await bumpUserRepos(db, to.id, 1);
  await bumpUserRepos(db, from.id, -1);
  await markWatch(db, doer.id, repo.id, true);
  if (from.type === ORG_TYPE) await markWatch(db, from.id, repo.id, false);
  await deleteTransfer(db, repo.id);
  await deleteRedirect(db, to.id, repo.lower_name);
  await setRedirect(db, from.id, repo.lower_name, repo.id);
  for (const team of teams) await addTeamRepo(db, team, repo.id);
}

/**
 * Moves the repository to `to`: rows in one transaction, then the directory and its wiki, in it,
 * under a 'repo.move' intent (dir-moves.ts): moved back if the transaction does not commit.
 */
async function transferOwnership(h: Hearth, doer: User, repo: Repository, from: User, to: User, teams: Team[]): Promise<Repository> {
  const moves = repoAndWikiMoves(h.config, from.name, repo.name, to.name, repo.name);
  const staged = { kind: 'repo.move' as const, payload: { repoId: repo.id }, moves, crashAt: 'repo.transfer.after-move' };
  const { value: result } = await inTransactionWithMoves(h.db, staged, async (trx) => {
    await assertNameFree(withDb(h, trx), to, repo);
    await moveRows(trx, doer, repo, from, to, teams);
    const now = { ...repo, owner_id: to.id, owner_name: to.name };
    await recordAudit(trx, { op: 'repo.transfer', target: repoTarget(now), repo: now, extra: { from: from.name, to: to.name } });
    return (await getRepoById(trx, repo.id))!;
  });
  await emit(h.db, 'repo.transferred', { repo: result, doer, oldOwner: from.name });
  return result;
}

/** The repository after the request, as the caller sees it, and its pending transfer if any. */
export type TransferView = { access: RepoAccess; pending: PendingTransfer | null };

/**
 * POST /repos/{owner}/{repo}/transfer: immediate when the caller may create repositories in
 * the new owner, otherwise a pending transfer the recipient accepts or rejects.
 */
export async function startTransfer(
  h: Hearth, doer: User, access: RepoAccess, input: { newOwner: string; teamIds?: number[] },
): Promise<TransferView> {
  const { repo, owner } = access;
  const to = await recipientOf(h.db, doer, input.newOwner);
  const teams = await teamsFor(h.db, to, input.teamIds);
  if (await getPendingTransfer(h.db, repo.id)) {
    throw new ConflictError(`repository is already being transferred [uname: ${owner.name}, name: ${repo.name}]`);
  }
  if (await mayCreateIn(h.db, doer, to)) {
    const moved = await transferOwnership(h, doer, repo, owner, to, teams);
    return { access: await accessOf(h.db, moved, doer), pending: null };
  }
  if (await isBlockedBy(h.db, doer.id, [to.id])) throw new ForbiddenError('user is blocked by the new owner');
  await h.db.transaction().execute(async (trx) => {
    await assertNameFree(withDb(h, trx), to, repo);
    // The recipient must be able to see the repository to accept it.
    if (to.type !== ORG_TYPE && (await accessMode(trx, to, repo, owner)) === ACCESS.none) {
      await upsertCollaboration(trx, repo.id, to.id, ACCESS.read, nowUnix());
    }
    await insertTransfer(trx, { repo_id: repo.id, doer_id: doer.id, recipient_id: to.id, team_ids: teams.map((t) => t.id), now: nowUnix() });
  });
  await emit(h.db, 'repo.transfer_pending', { repo, doer, recipient: to });
  return { access, pending: await pendingTransfer(h.db, repo) };
}

/** The pending transfer with its users and teams, or null. */
export async function pendingTransfer(db: DB, repo: Repository): Promise<PendingTransfer | null> {
  const row = await getPendingTransfer(db, repo.id);
  if (!row) return null;
  const [doer, recipient] = await Promise.all([getUserById(db, row.doer_id), getUserById(db, row.recipient_id)]);
  if (!doer || !recipient) return null;
  let ids: number[] = [];
  try { ids = (JSON.parse(row.team_ids) as unknown[]).map(Number); } catch { /* none */ }
  return { doer, recipient, teams: await getTeamsByIds(db, ids) };
}

/**
 * A repository page's view of a pending transfer: the transfer itself (the settings' danger
 * zone shows it) and, when this user may accept or reject it (the recipient, its repository
 * creators, site admins), the same transfer as the offer of the page's banner; read once for both.
 */
export async function transferViewFor(db: DB, user: User, repo: Repository): Promise<{ pending: PendingTransfer | null; offer: PendingTransfer | null }> {
  const pending = await pendingTransfer(db, repo);
  return { pending, offer: pending && (await mayCreateIn(db, user, pending.recipient)) ? pending : null };
}

async function pendingFor(db: DB, doer: User, repo: Repository): Promise<PendingTransfer> {
  const pending = await pendingTransfer(db, repo);
  if (!pending) throw new NotFoundError(`repository doesn't have a pending transfer [repo_id: ${repo.id}]`);
  // Gitea's CanUserAcceptOrRejectTransfer: the recipient, its repository creators, site admins.
  if (!(await mayCreateIn(db, doer, pending.recipient))) {
    throw new ForbiddenError('user does not have permission to accept or reject this transfer');
  }
  return pending;
}

/** POST .../transfer/accept: moves the repository as the original sender asked. */
export async function acceptTransfer(h: Hearth, doer: User, access: RepoAccess): Promise<TransferView> {
  const pending = await pendingFor(h.db, doer, access.repo);
  const moved = await transferOwnership(h, pending.doer, access.repo, access.owner, pending.recipient, pending.teams);
  return { access: await accessOf(h.db, moved, doer), pending: null };
}

/** POST .../transfer/reject: drops the pending transfer; the repository stays. */
export async function rejectTransfer(db: DB, doer: User, access: RepoAccess): Promise<TransferView> {
  await pendingFor(db, doer, access.repo);
  await deleteTransfer(db, access.repo.id);
  return { access, pending: null };
}

/** Gitea's CancelRepositoryTransfer: the repository's admin withdraws a pending transfer. */
export async function cancelTransfer(db: DB, access: RepoAccess): Promise<void> {
  if (!(await getPendingTransfer(db, access.repo.id))) throw new NotFoundError(`repository doesn't have a pending transfer [repo_id: ${access.repo.id}]`);
  await deleteTransfer(db, access.repo.id);
}
