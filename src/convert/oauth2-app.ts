import type { OAuth2Application } from '../db/schema';
import { isoTime } from '../lib/time';

export type ApiOAuth2Application = {
  id: number; name: string; client_id: string; client_secret: string; redirect_uris: string[];
  confidential_client: boolean; skip_secondary_authorization: boolean; created: string;
};

/** The reference's OAuth2Application; the secret only when it was just generated (else ""). */
export const toApiOAuth2App = (app: OAuth2Application, secret = ''): ApiOAuth2Application => ({
  id: app.id,
  name: app.name,
  client_id: app.client_id,
  client_secret: secret,
  redirect_uris: JSON.parse(app.redirect_uris) as string[],
  confidential_client: app.confidential_client === 1,
  skip_secondary_authorization: app.skip_secondary_authorization === 1,
  created: isoTime(app.created_unix),
});
