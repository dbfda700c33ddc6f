import type { Request, Response } from 'express';
import { html } from '../../lib/html';
import { AppError, NotFoundError } from '../../lib/errors';
import { addGpgKey, deleteGpgKey, getGpgKey, listGpgKeys, verificationToken, verifyGpgKey, type GpgKeyView } from '../../services/user/gpg-keys';
import { addPublicKey, deletePublicKey, getPublicKey, listPublicKeys, type KeyWithOwner } from '../../services/user/keys';
import { SSH_VERIFY_NAMESPACE, verifySshKey } from '../../services/user/ssh-key-verify';
import { confirmPage, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { rootPath } from './guards';
import { when } from './layout';
import { dangerLink, donePath, formOf, settingsPage, text, textArea } from './settings-layout';

// /user/settings/keys: SSH keys (add, verify by signing the token with ssh-keygen, delete) and GPG keys (add, verify by signing the token
// Gitea asks for, delete), through the services of the API's /user/keys and /user/gpg_keys.

type Form = Record<string, unknown>;
type Which = 'ssh' | 'verify_ssh' | 'gpg' | 'verify_gpg';
type View = { values?: Form; errors?: FieldErrors; status?: number; form?: Which };
const PATH = '/user/settings/keys';

function sshRow(req: Request, res: Response, { key }: KeyWithOwner, view: View) {
  const verifying = view.form === 'verify_ssh' && text(view.values ?? {}, 'key_id') === String(key.id);
  const errors = verifying ? view.errors ?? {} : {};
  const verify = key.verified ? '' : html`<details${verifying ? html` open` : ''}><summary>Verify</summary>
<p>Sign this token with the key and paste the signature: <code>echo -n '${verificationToken(req.ctx.doer!)}' | ssh-keygen -Y sign -n ${SSH_VERIFY_NAMESPACE} -f /path/to/the/key</code></p>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, PATH)}">${csrfInput(req, res)}<input type="hidden" name="type" value="verify_ssh"><input type="hidden" name="key_id" value="${String(key.id)}">
${textArea({ name: 'signature', id: `f-ssh-signature-${key.id}`, label: `Signature for key ${key.name}`, mono: true, required: true }, errors)}
${submitButton('Verify')}</form></details>`;
  return html`<li><strong>${key.name}</strong>${key.verified ? html` <span class="badge">Verified</span>` : ''}<div class="meta"><code>${key.fingerprint}</code> · added ${when(key.created_unix)}</div>${verify}
<div class="row-actions">${dangerLink(rootPath(req, `${PATH}/delete?type=ssh&id=${key.id}`), 'Delete', `Delete SSH key ${key.name}`)}</div></li>`;
}

function gpgRow(req: Request, res: Response, v: GpgKeyView, view: View) {
  const k = v.key;
  const verifying = view.form === 'verify_gpg' && text(view.values ?? {}, 'key_id') === k.key_id;
  const errors = verifying ? view.errors ?? {} : {};
  const emails = v.emails.map((e) => e.email).join(', ') || 'no e-mail address of yours';
  const verify = k.verified ? '' : html`<details${verifying ? html` open` : ''}><summary>Verify</summary>
<p>Sign this token with the key and paste the signature: <code>echo "${verificationToken(req.ctx.doer!)}" | gpg -a --default-key ${k.key_id} --detach-sig</code></p>${formAlert(errors[''])}
<form class="stack" method="post" action="${rootPath(req, PATH)}">${csrfInput(req, res)}<input type="hidden" name="type" value="verify_gpg"><input type="hidden" name="key_id" value="${k.key_id}">
${textArea({ name: 'signature', id: `f-gpg-signature-${k.key_id}`, label: `Signature for key ${k.key_id}`, mono: true, required: true }, errors)}
${submitButton('Verify')}</form></details>`;
  return html`<li><strong><code>${k.key_id}</code></strong>${k.verified ? html` <span class="badge">Verified</span>` : ''}
<div class="meta">${emails} · added ${when(k.created_unix)}${k.expired_unix ? html` · expires ${when(k.expired_unix)}` : ''}</div>${verify}
<div class="row-actions">${dangerLink(rootPath(req, `${PATH}/delete?type=gpg&id=${k.id}`), 'Delete', `Delete GPG key ${k.key_id}`)}</div></li>`;
}

async function page(req: Request, res: Response, view: View = {}): Promise<void> {
  const user = req.ctx.doer!;
  const all = { offset: 0, limit: 1000 };
  const [ssh, gpg] = await Promise.all([listPublicKeys(req.ctx.db, user, undefined, all), listGpgKeys(req.ctx.db, user, all)]);
  const se = view.form === 'ssh' ? view.errors ?? {} : {};
  const ge = view.form === 'gpg' ? view.errors ?? {} : {};
  const v = view.values ?? {};
  settingsPage(req, res, {
    tab: 'keys', title: 'SSH / GPG keys', status: view.status,
    body: html`<section id="ssh" aria-labelledby="ssh-h"><h2 id="ssh-h">SSH keys</h2>
${ssh.keys.length ? html`<ul class="list">${ssh.keys.map((k) => sshRow(req, res, k, view))}</ul>` : html`<p>You have no SSH keys.</p>`}${formAlert(se[''])}
<form class="stack" method="post" action="${rootPath(req, PATH)}">${csrfInput(req, res)}<input type="hidden" name="type" value="ssh">
${field({ name: 'title', label: 'Key name', value: view.form === 'ssh' ? text(v, 'title') : '', required: true }, se)}
${textArea({ name: 'content', id: 'f-ssh-content', label: 'Public key', value: view.form === 'ssh' ? text(v, 'content') : '', mono: true, required: true, hint: 'Begins with ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, sk-ssh-ed25519@openssh.com…' }, se)}
${submitButton('Add SSH key')}</form></section>
<section id="gpg" aria-labelledby="gpg-h"><h2 id="gpg-h">GPG keys</h2>
${gpg.keys.length ? html`<ul class="list">${gpg.keys.map((k) => gpgRow(req, res, k, view))}</ul>` : html`<p>You have no GPG keys.</p>`}${formAlert(ge[''])}
<form class="stack" method="post" action="${rootPath(req, PATH)}">${csrfInput(req, res)}<input type="hidden" name="type" value="gpg">
${textArea({ name: 'content', id: 'f-gpg-content', label: 'Armored public key', value: view.form === 'gpg' ? text(v, 'content') : '', mono: true, rows: 6, required: true, hint: 'gpg --armor --export KEYID' }, ge)}
${textArea({ name: 'signature', id: 'f-gpg-signature', label: 'Signature of the token (optional)', value: view.form === 'gpg' ? text(v, 'signature') : '', mono: true, hint: `Needed when no address of the key is yours: sign "${verificationToken(user)}".` }, ge)}
${submitButton('Add GPG key')}</form></section>`,
  });
}

export const keysPage = (req: Request, res: Response): Promise<void> => page(req, res);

/** The service's refusals of a key (a 404 "no e-mail of yours" included) are the form's to show. */
async function keyAction(action: () => Promise<unknown>, fields: Record<string, string>): Promise<FieldErrors | null> {
  try {
    return await formAction(async () => { await action(); }, fields);
  } catch (err) {
    if (err instanceof NotFoundError || (err instanceof AppError && err.status === 409)) return { '': err.message };
    throw err;
  }
}

/** POST /user/settings/keys: `type` is ssh, verify_ssh, gpg or verify_gpg, as Gitea's form. */
export async function addKey(req: Request, res: Response): Promise<void> {
  const body = formOf(req);
  const type = text(body, 'type') as Which;
  const { db } = req.ctx;
  const user = req.ctx.signer!;
  const run: Record<Which, [() => Promise<unknown>, Record<string, string>, string, string]> = {
    ssh: [() => addPublicKey(db, user, { title: text(body, 'title').trim(), key: text(body, 'content') }), { key: 'content' }, 'ssh-added', 'ssh'],
    gpg: [() => addGpgKey(db, user, text(body, 'content'), text(body, 'signature') || undefined), { armored_public_key: 'content' }, 'gpg-added', 'gpg'],
    verify_gpg: [() => verifyGpgKey(db, user, text(body, 'key_id'), text(body, 'signature')), {}, 'gpg-verified', 'gpg'],
    verify_ssh: [() => verifySshKey(db, user, Number(text(body, 'key_id')) || 0, text(body, 'signature')), {}, 'ssh-verified', 'ssh'],
  };
  const chosen = run[type];
  if (!chosen) return page(req, res, { status: 422, errors: { '': 'Unknown key type.' }, form: 'ssh' });
  if (type === 'ssh' && !text(body, 'title').trim()) return page(req, res, { values: body, errors: { title: 'Enter a name for the key.' }, status: 422, form: 'ssh' });
  const errors = await keyAction(chosen[0], chosen[1]);
  if (errors) return page(req, res, { values: body, errors, status: 422, form: type });
  redirectAfterPost(req, res, donePath(PATH, chosen[2]), chosen[3]);
}

const idOf = (req: Request): number => {
  const id = Number(req.query.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new NotFoundError();
  return id;
};

/** GET /user/settings/keys/delete?type=&id=: the confirmation, naming the key. */
export async function confirmDeleteKey(req: Request, res: Response): Promise<void> {
  const id = idOf(req);
  const type = req.query.type === 'gpg' ? 'gpg' : 'ssh';
  let name: string;
  if (type === 'gpg') name = `GPG key ${(await getGpgKey(req.ctx.db, req.ctx.doer!, id)).key.key_id}`;
  else {
    const found = await getPublicKey(req.ctx.db, id);
    if (found.key.owner_id !== req.ctx.doer!.id) throw new NotFoundError();
    name = `SSH key "${found.key.name}"`;
  }
  confirmPage(req, res, {
    title: 'Delete a key', message: html`Delete your ${name}? Anything it signs or opens stops working with this account.`,
    action: rootPath(req, `${PATH}/delete?type=${type}&id=${id}`), button: 'Delete key', cancel: rootPath(req, `${PATH}#${type}`),
  });
}

/** POST /user/settings/keys/delete?type=&id= */
export async function deleteKey(req: Request, res: Response): Promise<void> {
  const id = idOf(req);
  const user = req.ctx.signer!;
  if (req.query.type === 'gpg') await deleteGpgKey(req.ctx.db, user, id);
  else {
    // An admin's own settings delete only their own keys (the service lets admins delete any).
    if ((await getPublicKey(req.ctx.db, id)).key.owner_id !== user.id) throw new NotFoundError();
    await deletePublicKey(req.ctx.db, user, id);
  }
  redirectAfterPost(req, res, donePath(PATH, 'key-deleted'), req.query.type === 'gpg' ? 'gpg' : 'ssh');
}
