import type { EmailAddress } from '../db/schema';

/**
 * An address as /user/emails shows it: Gitea leaves the owner out there (user_id 0, username
 * empty), since the caller is the owner; the admin search fills them in (toApiEmailOf).
 */
export const toApiEmail = (email: EmailAddress) => ({
  email: email.email,
  verified: email.is_activated === 1,
  primary: email.is_primary === 1,
  user_id: 0,
  username: '',
});

/** An address with its owner, as the admin e-mail search shows it. */
export const toApiEmailOf = (email: EmailAddress, userName: string) => ({ ...toApiEmail(email), user_id: email.uid, username: userName });
