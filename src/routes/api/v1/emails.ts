import type { Request, Response } from 'express';
import * as z from 'zod';
import { toApiEmail, toApiEmailOf } from '../../../convert/email';
import { addEmails, deleteEmails, listEmails, searchEmails } from '../../../services/user/emails';
import { doerOf } from '../../context';
import { pageOf, setPaginationHeaders } from '../../pagination';
import { named, parseBody } from '../../validate';

const emailList = { emails: z.array(z.string()).default([]) };
export const addSchema = named('CreateEmailOption', z.object(emailList));
export const removeSchema = named('DeleteEmailOption', z.object(emailList));

export async function list(req: Request, res: Response): Promise<void> {
  const doer = doerOf(req);
  res.json((await listEmails(req.ctx.db, doer)).map((e) => toApiEmail(e)));
}

export async function add(req: Request, res: Response): Promise<void> {
  const doer = doerOf(req);
  const { emails } = parseBody(addSchema, req.body);
  const all = await addEmails(req.ctx.h, doer, emails);
  res.status(201).json(all.map((e) => toApiEmail(e)));
}

export async function remove(req: Request, res: Response): Promise<void> {
  const { emails } = parseBody(removeSchema, req.body);
  await deleteEmails(req.ctx.db, doerOf(req), emails);
  res.status(204).end();
}

/** Admin: every user's addresses, optionally filtered by `q`. */
export async function searchAll(req: Request, res: Response): Promise<void> {
  const page = pageOf(req);
  const keyword = typeof req.query.q === 'string' ? req.query.q.trim() : '';
  const { emails, total } = await searchEmails(req.ctx.db, { keyword, offset: page.offset, limit: page.limit });
  setPaginationHeaders(req, res, total, page);
  res.json(emails.map((e) => toApiEmailOf(e, e.user_name)));
}
