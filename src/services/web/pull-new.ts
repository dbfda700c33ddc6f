import type { Label, Milestone, User } from '../../db/schema';
import { forkOfOwner } from '../../models/pull';
import { listAssignees } from '../issue/issues';
import { listScopedLabels } from '../issue/labels';
import { listRepoMilestones } from '../issue/milestones';
import { ACCESS, ORG_TYPE } from '../permissions';
import { listBranches } from '../repo/branches';
import { accessOf, type RepoAccess } from '../repo/repos';
import { listReviewers } from '../pull/pulls';
import type { Hearth } from '../../hearth';

// What the "new pull request" form under a comparison offers: the heads to pick from (the
// base repository's branches and the visitor's fork's), and for writers the labels, milestones
// and assignees; reviewers for anyone who may open one. The pull itself is made by the same
// service as POST /repos/{owner}/{repo}/pulls.

const MAX_BRANCHES = 100;
const MAX_CHOICES = 200;

export type HeadChoice = { value: string; label: string };
export type NewPullChoices = {
  /** Base branches (this repository's) and heads (`branch` here, `owner:branch` in the visitor's fork). */
  bases: string[];
  heads: HeadChoice[];
  writer: boolean;
  labels: Label[];
  milestones: Milestone[];
  assignees: User[];
  reviewers: User[];
};

async function branchNames(h: Hearth, access: RepoAccess, doer: User | null): Promise<string[]> {
  return (await listBranches(h, access, doer, { offset: 0, limit: MAX_BRANCHES })).items.map((b) => b.name);
}

export async function newPullChoices(h: Hearth, access: RepoAccess, doer: User): Promise<NewPullChoices> {
  const writer = access.mode >= ACCESS.write;
  const fork = await forkOfOwner(h.db, doer.id, access.repo.id);
  const forkAccess = fork ? await accessOf(h.db, fork, doer) : null;
  const page = { offset: 0, limit: MAX_CHOICES };
  const [bases, forkBranches, repoLabels, orgLabels, milestones, assignees, reviewers] = await Promise.all([
    branchNames(h, access, doer),
    forkAccess && forkAccess.mode >= ACCESS.read ? branchNames(h, forkAccess, doer) : Promise.resolve([]),
    writer ? listScopedLabels(h.db, { repoId: access.repo.id }, undefined, page) : null,
    writer && access.owner.type === ORG_TYPE ? listScopedLabels(h.db, { orgId: access.owner.id }, undefined, page) : null,
    writer ? listRepoMilestones(h.db, access, { state: 'open', ...page }) : null,
    writer ? listAssignees(h.db, access) : Promise.resolve([]),
    listReviewers(h.db, access),
  ]);
  const heads = [
    ...bases.map((b) => ({ value: b, label: `${access.owner.name}:${b}` })),
    ...forkBranches.map((b) => ({ value: `${doer.name}:${b}`, label: `${doer.name}:${b}` })),
  ];
  return {
    bases, heads, writer, labels: [...(orgLabels?.labels ?? []), ...(repoLabels?.labels ?? [])], milestones: milestones?.milestones ?? [],
    assignees, reviewers: reviewers.filter((u) => u.id !== doer.id),
  };
}
