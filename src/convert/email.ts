import type { EmailAddress } from '../db/schema';

export const toApiEmail = (email: EmailAddress, userName: string) => ({
  email: email.email,
  verified: email.is_activated === 1,
  primary: email.is_primary === 1,
  user_id: email.uid,
  username: userName,
});
