import type { AuditOperation } from './operations';

// The human-readable line of a row, in the instance's language (English: hearth has no other
// locale yet). Kept with the row, so it reads as it did when the operation happened.
// {o}: the operator, {t}: the target, {r}: the repository.
const TEMPLATES: Record<AuditOperation, string> = {
  'user.signin': '{o} signed in',
  'user.signin.failure': 'Failed sign-in as "{t}"',
  'user.sudo': '{o} acted as {t} (Sudo)',
  'user.token.create': '{o} created access token "{t}"',
  'user.token.delete': '{o} deleted access token "{t}"',
  'user.password.change': '{o} changed the password of {t}',
  'user.email.add': '{o} added email {t}',
  'user.email.remove': '{o} removed email {t}',
  'user.create': '{o} created user {t}',
  'user.delete': '{o} deleted user {t}',
  'user.rename': '{o} renamed user {t}',
  'org.create': '{o} created organization {t}',
  'org.delete': '{o} deleted organization {t}',
  'org.rename': '{o} renamed organization {t}',
  'team.create': '{o} created team {t}',
  'team.delete': '{o} deleted team {t}',
  'team.member.add': '{o} added a member to team {t}',
  'team.member.remove': '{o} removed a member from team {t}',
  'repo.create': '{o} created repository {t}',
  'repo.delete': '{o} deleted repository {t}',
  'repo.adopt': '{o} adopted repository {t} from its files',
  'repo.unadopted.delete': '{o} deleted the files of unadopted repository {t}',
  'repo.rename': '{o} renamed repository {t}',
  'repo.transfer': '{o} transferred repository {t}',
  'repo.visibility': '{o} changed the visibility of repository {t}',
  'repo.collaborator.add': '{o} added collaborator {t} to {r}',
  'repo.collaborator.remove': '{o} removed collaborator {t} from {r}',
  'repo.collaborator.update': '{o} changed the permission of collaborator {t} on {r}',
  'repo.branch_protection.create': '{o} protected branches "{t}" of {r}',
  'repo.branch_protection.update': '{o} changed the protection of branches "{t}" of {r}',
  'repo.branch_protection.delete': '{o} removed the protection of branches "{t}" of {r}',
  'repo.tag_protection.create': '{o} protected tags "{t}" of {r}',
  'repo.tag_protection.update': '{o} changed the protection of tags "{t}" of {r}',
  'repo.tag_protection.delete': '{o} removed the protection of tags "{t}" of {r}',
  'webhook.create': '{o} created webhook {t}',
  'webhook.update': '{o} changed webhook {t}',
  'webhook.delete': '{o} deleted webhook {t}',
  'repo.deploy_key.add': '{o} added deploy key "{t}" to {r}',
  'repo.deploy_key.remove': '{o} removed deploy key "{t}" from {r}',
  'actions.secret.create': '{o} created secret {t}',
  'actions.secret.update': '{o} changed secret {t}',
  'actions.secret.delete': '{o} deleted secret {t}',
  'actions.run.approve': '{o} approved Actions run {t} of {r}',
  'admin.user.edit': '{o} (site admin) edited user {t}',
  'admin.cron.run': '{o} (site admin) ran cron task {t}',
  'admin.advisories.import': '{o} (site admin) imported advisories from {t}',
};

export function auditMessage(op: AuditOperation, operator: string, target: string, repo: string): string {
  return TEMPLATES[op].replace(/\{([otr])\}/g, (_, k: string) => (k === 'o' ? operator : k === 't' ? target : repo));
}
