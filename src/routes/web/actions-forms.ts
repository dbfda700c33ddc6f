import type { Request, Response } from 'express';
import { InvalidError, NotFoundError } from '../../lib/errors';
import { html, type SafeHtml } from '../../lib/html';
import { approveFromApi, cancelFromApi, dispatchFromApi } from '../../services/actions/api-dispatch';
import { getWorkflow, setWorkflowEnabled } from '../../services/actions/api-workflows';
import { rerunRun, type RerunWhat } from '../../services/actions/rerun';
import type { DispatchInput } from '../../services/actions/workflow/events';
import { dispatchInputs, runPage } from '../../services/web/actions-pages';
import { deleteRunArtifact } from '../../services/web/actions-artifacts';
import { queryString } from '../query';
import { checkbox, csrfInput, field, formAction, formAlert, redirectAfterPost, submitButton, type FieldErrors } from './forms';
import { repoOf, unitsOf } from './guards';
import { text } from './issue-actions';
import { indexParam } from './issue-view-pages';
import { repoHeader, repoLink, sendPage } from './layout';

// The writers' Actions forms: cancel, approve, re-run (all jobs, the failed ones, one job),
// enable or disable a workflow, and dispatch a workflow with its typed workflow_dispatch inputs.
// Each calls the service the API's Actions routes call; each answers 303 back to its page.

const rel = (req: Request, rest: string) => {
  const a = repoOf(req);
  return `${encodeURIComponent(a.owner.name)}/${encodeURIComponent(a.repo.name)}/${rest}`;
};

/** The run's id behind its number in the URL (404 for another repository's). */
const runOf = async (req: Request) => (await runPage(req.ctx.db, repoOf(req), indexParam(req, 'run'))).view.run;

/** POST .../actions/runs/{run}/cancel */
export async function cancel(req: Request, res: Response): Promise<void> {
  const run = await runOf(req);
  await cancelFromApi(req.ctx.h, repoOf(req).repo.id, run.id, req.ctx.doer!);
  redirectAfterPost(req, res, rel(req, `actions/runs/${run.run_index}`));
}

/** POST .../actions/runs/{run}/artifacts/{name}/delete: back to the run, the artifact gone from its list. */
export async function deleteArtifact(req: Request, res: Response): Promise<void> {
  const run = indexParam(req, 'run');
  await deleteRunArtifact(req.ctx.h, repoOf(req), run, String(req.params.name));
  redirectAfterPost(req, res, rel(req, `actions/runs/${run}`), 'artifacts');
}

/** POST .../actions/runs/{run}/approve */
export async function approve(req: Request, res: Response): Promise<void> {
  const run = await runOf(req);
  await approveFromApi(req.ctx.h, repoOf(req).repo.id, run.id, req.ctx.doer!);
  redirectAfterPost(req, res, rel(req, `actions/runs/${run.run_index}`));
}

function rerun(what: (req: Request, runJobs: Awaited<ReturnType<typeof runPage>>) => RerunWhat) {
  return async (req: Request, res: Response): Promise<void> => {
    const p = await runPage(req.ctx.db, repoOf(req), indexParam(req, 'run'));
    await rerunRun(req.ctx.h, repoOf(req).repo.id, p.view.run.id, what(req, p));
    redirectAfterPost(req, res, rel(req, `actions/runs/${p.view.run.run_index}`));
  };
}

/** POST .../runs/{run}/rerun, .../rerun-failed and .../jobs/{job}/rerun */
export const rerunAll = rerun(() => ({ all: true }));
export const rerunFailed = rerun(() => ({ failed: true }));
export const rerunJob = rerun((req, p) => {
  const index = /^\d{1,6}$/.test(String(req.params.job)) ? Number(req.params.job) : -1;
  return { jobId: p.jobs.find((j) => j.index === index)?.job.id ?? 0 };
});

const workflowParam = (req: Request) => queryString(req, 'workflow') ?? '';

function toggle(enabled: boolean) {
  return async (req: Request, res: Response): Promise<void> => {
    const id = workflowParam(req);
    await setWorkflowEnabled(req.ctx.h, repoOf(req), id, enabled);
    redirectAfterPost(req, res, rel(req, `actions?workflow=${encodeURIComponent(id)}`));
  };
}

/** POST .../actions/enable?workflow= and .../actions/disable?workflow= */
export const enableWorkflow = toggle(true);
export const disableWorkflow = toggle(false);

function inputField(i: DispatchInput, value: string | undefined, errors: FieldErrors): SafeHtml {
  const name = `inputs[${i.name}]`;
  const label = i.description || i.name;
  const v = value ?? i.default;
  const errs = errors[i.name] ? { [name]: errors[i.name]! } : {};
  if (i.type === 'boolean') return checkbox(name, label, v === 'true' || v === 'on');
  if (i.type === 'choice') {
    return html`<div class="field${errs[name] ? ' invalid' : ''}"><label for="in-${i.name}">${label}</label><select id="in-${i.name}" name="${name}">${i.options.map((o) => html`<option${o === v ? html` selected` : ''}>${o}</option>`)}</select>${errs[name] ? html`<p class="error">${errs[name]}</p>` : ''}</div>`;
  }
  return field({ name, id: `in-${i.name}`, label, value: v, type: i.type === 'number' ? 'number' : 'text', required: i.required, hint: i.type === 'environment' ? 'An environment name.' : undefined }, errs);
}

async function dispatchForm(req: Request, res: Response, values: Record<string, string>, errors: FieldErrors, status = 200): Promise<void> {
  const access = repoOf(req);
  const id = workflowParam(req);
  const w = await getWorkflow(req.ctx.h, access, id);
  const inputs = await dispatchInputs(req.ctx.config, access, id);
  const body = inputs === null
    ? html`<p>This workflow has no <code>workflow_dispatch</code> trigger: it cannot be run by hand.</p>`
    : html`<form class="stack" method="post" action="${repoLink(req.ctx.config, access, `actions/run?workflow=${encodeURIComponent(id)}`)}">${formAlert(errors[''])}${csrfInput(req, res)}
${field({ name: 'ref', label: 'Branch or tag', value: values.ref ?? access.repo.default_branch, required: true }, errors)}
${inputs.map((i) => inputField(i, values[i.name], errors))}${submitButton('Run workflow')}</form>`;
  sendPage(req, res, {
    title: `Run ${w.name}`, status,
    body: html`${repoHeader(req.ctx.config, access, unitsOf(res), 'actions')}<h2>Run workflow ${w.name}</h2><p class="meta">${w.path}</p>${body}`,
  });
}

/** GET .../actions/run?workflow= */
export const dispatchPage = (req: Request, res: Response) => dispatchForm(req, res, {}, {});

/** The posted inputs (`inputs[name]`); a boolean's unticked box sends nothing, which is false. */
async function postedInputs(req: Request): Promise<Record<string, string>> {
  const declared = (await dispatchInputs(req.ctx.config, repoOf(req), workflowParam(req))) ?? [];
  const out: Record<string, string> = {};
  for (const i of declared) {
    const v = text(req, `inputs[${i.name}]`);
    out[i.name] = i.type === 'boolean' ? String(v === 'on' || v === 'true') : v;
  }
  return out;
}

/** POST .../actions/run?workflow=: 303 to the workflow's runs, or 422 with the reason under its input. */
export async function dispatchPost(req: Request, res: Response): Promise<void> {
  const id = workflowParam(req);
  const inputs = await postedInputs(req);
  const ref = text(req, 'ref').trim();
  const errors = ref
    ? await formAction(() => dispatchFromApi(req.ctx.h, repoOf(req), req.ctx.doer!, id, ref, inputs).catch((err: unknown) => {
      // A branch that is not there is the form's mistake, not a missing page.
      throw err instanceof NotFoundError && err.message.startsWith('ref ') ? new InvalidError(err.message, 'ref') : err;
    }))
    : { ref: 'Name the branch or tag to run the workflow on.' };
  if (errors) {
    const m = /^input "([^"]+)"/.exec(errors[''] ?? '');
    return dispatchForm(req, res, { ...inputs, ref }, m ? { [m[1]!]: errors['']! } : errors, 422);
  }
  redirectAfterPost(req, res, rel(req, `actions?workflow=${encodeURIComponent(id)}`));
}
