import type { DB } from '../../db/connect';
import type { EmailAddress, User } from '../../db/schema';
import { InvalidError, NotFoundError, BadRequestError } from '../../lib/errors';
import * as emails from '../../models/email';
import { isValidEmail } from '../names';
import { recordAudit } from '../audit/record';
import { isEmailDomainAllowed } from './email-domains';
import type { Hearth } from '../../hearth';

export const listEmails = (db: DB, user: User): Promise<EmailAddress[]> => emails.listEmailsOfUser(db, user.id);

/** Adds addresses (all or none); answers the user's full list. No mail is sent: they count as verified. */
export async function addEmails(h: Hearth, user: User, list: string[]): Promise<EmailAddress[]> {
  if (list.length === 0) throw new InvalidError('Email list empty', 'emails');
  const wanted = list.map((e) => e.trim());
  for (const email of wanted) {
    // A domain outside [service] email_domain_allowlist/blocklist is invalid, as Gitea's ValidateEmail.
    if (!isValidEmail(email) || !isEmailDomainAllowed(h.config, email)) throw new InvalidError(`Email address "${email}" invalid`, 'emails');
  }
  await h.db.transaction().execute(async (trx) => {
    for (const email of wanted) {
      // As Gitea: any existing address is refused, the caller's own included (and a repeat in the list).
      if (await emails.getEmail(trx, email)) throw new InvalidError(`Email address has been used: ${email}`, 'emails');
      await emails.insertEmail(trx, { uid: user.id, email, is_primary: false, is_activated: true });
      const id = (await emails.getEmail(trx, email))?.id ?? 0;
      await recordAudit(trx, { op: 'user.email.add', target: { type: 'email', id, name: email }, owner: user });
    }
  });
  return emails.listEmailsOfUser(h.db, user.id);
}

/** Deletes addresses (all or none); the primary address stays. */
export async function deleteEmails(db: DB, user: User, list: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const email of list.map((e) => e.trim())) {
      const row = await emails.getEmail(trx, email);
      if (!row || row.uid !== user.id) throw new NotFoundError(`email address does not exist [email: ${email}]`);
      if (row.is_primary) throw new BadRequestError(`primary email address cannot be deleted [email: ${email}]`);
      await emails.deleteEmailById(trx, row.id);
      await recordAudit(trx, { op: 'user.email.remove', target: { type: 'email', id: row.id, name: row.email }, owner: user });
    }
  });
}

export const searchEmails = emails.searchEmails;
