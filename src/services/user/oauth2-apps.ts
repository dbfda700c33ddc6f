import crypto from 'node:crypto';
import type { DB } from '../../db/connect';
import type { OAuth2Application, User } from '../../db/schema';
import { BadRequestError, InvalidError, NotFoundError } from '../../lib/errors';
import { nowUnix } from '../../lib/time';
import { hashToken } from '../../lib/token';
import {
  countOAuth2ApplicationsOf, deleteOAuth2ApplicationOf, getOAuth2ApplicationOf, insertOAuth2Application,
  listOAuth2ApplicationsOf, updateOAuth2Application,
} from '../../models/oauth2-application';

// A user's OAuth2 applications (Gitea's models/auth/oauth2.go). The client secret is shown once,
// when it is generated: on create and on every update, which regenerates it as Gitea does. Only
// its SHA-256 is kept (the secret is 32 random bytes: nothing to slow down a guess of).

export type OAuth2AppInput = {
  name: string; redirectUris: string[]; confidentialClient: boolean; skipSecondaryAuthorization: boolean;
  /** `[oauth2] custom_schemes`: schemes beyond http and https the redirect URIs may use. */
  customSchemes?: string[];
};

const NOT_FOUND = 'OAuth Application not found';

/** "gto_" and 32 random bytes in lower-case base32, as Gitea's GenerateClientSecret. */
function newClientSecret(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = crypto.randomBytes(32);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `gto_${out}`;
}

/** Gitea binds name and redirect_uris with `binding:"Required"`. */
function checkInput(input: OAuth2AppInput): void {
  if (!input.name.trim()) throw new InvalidError('[Name]: Required', 'name');
  if (input.redirectUris.length === 0) throw new InvalidError('[RedirectURIs]: Required', 'redirect_uris');
  for (const uri of input.redirectUris) {
    if (!URL.canParse(uri)) throw new InvalidError(`[RedirectURIs]: invalid redirect URI: ${uri}`, 'redirect_uris');
  }
  // Gitea refuses (400) a redirect to a scheme that is neither http(s) nor a configured custom one.
  const allowed = new Set(['http', 'https', ...(input.customSchemes ?? []).map((x) => x.toLowerCase())]);
  for (const uri of input.redirectUris) {
    const scheme = new URL(uri).protocol.slice(0, -1).toLowerCase();
    if (!allowed.has(scheme)) throw new BadRequestError(`invalid redirect URI scheme: ${uri}`);
  }
}

const columns = (input: OAuth2AppInput) => ({
  name: input.name,
  redirect_uris: JSON.stringify(input.redirectUris),
  confidential_client: input.confidentialClient ? 1 : 0,
  skip_secondary_authorization: input.skipSecondaryAuthorization ? 1 : 0,
});

export async function createOAuth2App(db: DB, user: User, input: OAuth2AppInput): Promise<{ app: OAuth2Application; secret: string }> {
  checkInput(input);
  const secret = newClientSecret();
  const now = nowUnix();
  const app = await insertOAuth2Application(db, {
    uid: user.id, client_id: crypto.randomUUID(), client_secret_hash: hashToken(secret),
    ...columns(input), created_unix: now, updated_unix: now,
  });
  return { app, secret };
}

export async function listOAuth2Apps(db: DB, user: User, page: { limit: number; offset: number }): Promise<{ apps: OAuth2Application[]; total: number }> {
  const [apps, total] = await Promise.all([
    listOAuth2ApplicationsOf(db, user.id, page.limit, page.offset),
    countOAuth2ApplicationsOf(db, user.id),
  ]);
  return { apps, total };
}

export async function getOAuth2App(db: DB, user: User, id: number): Promise<OAuth2Application> {
  const app = await getOAuth2ApplicationOf(db, user.id, id);
  if (!app) throw new NotFoundError(NOT_FOUND);
  return app;
}

/** Replaces the application's settings and regenerates its secret. */
export async function updateOAuth2App(db: DB, user: User, id: number, input: OAuth2AppInput): Promise<{ app: OAuth2Application; secret: string }> {
  await getOAuth2App(db, user, id);
  checkInput(input);
  const secret = newClientSecret();
  await updateOAuth2Application(db, id, { ...columns(input), client_secret_hash: hashToken(secret), updated_unix: nowUnix() });
  return { app: await getOAuth2App(db, user, id), secret };
}

export async function deleteOAuth2App(db: DB, user: User, id: number): Promise<void> {
  if (!(await deleteOAuth2ApplicationOf(db, user.id, id))) throw new NotFoundError(NOT_FOUND);
}

/** The settings page's edit: name, redirect URIs and client type; the secret stays as it is. */
export async function editOAuth2App(db: DB, user: User, id: number, input: OAuth2AppInput): Promise<OAuth2Application> {
  await getOAuth2App(db, user, id);
  checkInput(input);
  await updateOAuth2Application(db, id, { ...columns(input), updated_unix: nowUnix() });
  return getOAuth2App(db, user, id);
}

/** A new secret (shown once); the old one stops working at once. */
export async function regenerateOAuth2Secret(db: DB, user: User, id: number): Promise<{ app: OAuth2Application; secret: string }> {
  await getOAuth2App(db, user, id);
  const secret = newClientSecret();
  await updateOAuth2Application(db, id, { client_secret_hash: hashToken(secret), updated_unix: nowUnix() });
  return { app: await getOAuth2App(db, user, id), secret };
}
