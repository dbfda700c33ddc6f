// The operation types of the audit log: stable dotted names, stored as they are and filtered on
// by admins and their tools, so a name is never changed once released (add a new one instead).

export const AUDIT_OPERATIONS = [
  'user.signin', 'user.signin.failure', 'user.sudo',
  'user.token.create', 'user.token.delete',
  'user.password.change', 'user.email.add', 'user.email.remove',
  'user.create', 'user.delete', 'user.rename',
  'org.create', 'org.delete', 'org.rename',
  'team.create', 'team.delete', 'team.member.add', 'team.member.remove',
  'repo.create', 'repo.delete', 'repo.rename', 'repo.transfer', 'repo.visibility',
  'repo.collaborator.add', 'repo.collaborator.remove', 'repo.collaborator.update',
  'repo.branch_protection.create', 'repo.branch_protection.update', 'repo.branch_protection.delete',
  'repo.tag_protection.create', 'repo.tag_protection.update', 'repo.tag_protection.delete',
  'webhook.create', 'webhook.update', 'webhook.delete',
  'repo.deploy_key.add', 'repo.deploy_key.remove',
  'actions.secret.create', 'actions.secret.update', 'actions.secret.delete',
  'actions.run.approve',
  'admin.user.edit',
  'admin.cron.run', 'admin.advisories.import',
  'repo.adopt', 'repo.unadopted.delete',
] as const;

export type AuditOperation = (typeof AUDIT_OPERATIONS)[number];

const KNOWN = new Set<string>(AUDIT_OPERATIONS);
export const isAuditOperation = (s: string): s is AuditOperation => KNOWN.has(s);

/** What a row is about. */
export type AuditTargetType = 'user' | 'org' | 'team' | 'repo' | 'token' | 'email' | 'webhook'
  | 'protected_branch' | 'protected_tag' | 'deploy_key' | 'secret' | 'actions_run' | 'cron' | 'system';
