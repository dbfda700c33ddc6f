import type { DB } from '../../db/connect';
import type { AccessToken, User } from '../../db/schema';
import { BadRequestError, InvalidError, NotFoundError } from '../../lib/errors';
import { isEmptyScope, parseScopes, scopeNames } from '../../lib/scopes';
import { nowUnix } from '../../lib/time';
import { hashToken, newToken } from '../../lib/token';
import * as tokens from '../../models/access-token';
import { recordAudit } from '../audit/record';

export type CreatedToken = { row: AccessToken; token: string };

/** Creates a token; the plain value is returned once and only its hash is kept. */
export async function createToken(db: DB, user: User, name: string, scopeList: string[]): Promise<CreatedToken> {
  const trimmed = name.trim();
  // Gitea's binding:"Required" on the name: a validation error (422).
  if (!trimmed) throw new InvalidError('[name]: Required', 'name');
  const parsed = parseScopes(scopeList.flatMap((s) => s.split(',')));
  if ('invalid' in parsed) throw new BadRequestError(`invalid access token scope provided: access token scope "${parsed.invalid}" is invalid`);
  if (isEmptyScope(parsed)) throw new BadRequestError('access token must have a scope');
  return db.transaction().execute(async (trx) => {
    if ((await tokens.findTokensOfUser(trx, user.id, { name: trimmed })).length) {
      throw new BadRequestError('access token name has been used already');
    }
    const token = newToken();
    const now = nowUnix();
    const row = await tokens.insertToken(trx, {
      uid: user.id, name: trimmed, token_hash: hashToken(token), token_last_eight: token.slice(-8),
      scope: scopeNames(parsed).join(','), created_unix: now, updated_unix: now,
    });
    await recordAudit(trx, { op: 'user.token.create', target: { type: 'token', id: row.id, name: row.name }, owner: user, extra: { scopes: row.scope } });
    return { row, token };
  });
}

export const listTokens = (db: DB, user: User, page: { offset: number; limit: number }) =>
  tokens.listTokensOfUser(db, user.id, page);

/** `{token}` is an id, or a name when it is not a number; an ambiguous name is refused. */
export async function deleteToken(db: DB, user: User, idOrName: string): Promise<void> {
  // A number past what an id holds is a name, as Gitea's failed int64 parse makes it.
  const id = /^\d+$/.test(idOrName) && Number.isSafeInteger(Number(idOrName)) ? Number(idOrName) : 0;
  const found = await tokens.findTokensOfUser(db, user.id, id > 0 ? { id } : { name: idOrName });
  if (found.length === 0) throw new NotFoundError(`access token does not exist [id: ${idOrName}]`);
  if (found.length > 1) throw new InvalidError(`multiple matches for token name '${idOrName}'`);
  const token = found[0]!;
  await db.transaction().execute(async (trx) => {
    await tokens.deleteToken(trx, token.id);
    await recordAudit(trx, { op: 'user.token.delete', target: { type: 'token', id: token.id, name: token.name }, owner: user });
  });
}
