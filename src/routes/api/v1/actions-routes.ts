import { ACCESS } from '../../../services/access-modes';
import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { anyone, assignRepo, repoUnitAccess, reqRepoAdmin, scope, signedIn } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const runs = lazyModule(() => import('./actions-runs'));
const workflows = lazyModule(() => import('./actions-workflows'));
const artifacts = lazyModule(() => import('./actions-artifacts'));
const actionsRunners = lazyModule(() => import('./actions-runners'));
const actionsSettings = lazyModule(() => import('./actions-settings'));

// The rows of every `.../actions/...` operation of the reference (issue 15), at each level it
// lists, with Gitea's guards: repository settings need repository admins, reading runs and jobs
// the actions unit, writing them (delete, cancel, approve, workflows) write on it; organization
// settings need its owners; user settings the user; instance ones site admins (those three
// levels are in actions-owner-routes.ts).

const reqActionsReader = repoUnitAccess('repo.actions', ACCESS.read);
const reqActionsWriter = repoUnitAccess('repo.actions', ACCESS.write);
// The repository is resolved (404 when hidden) before a sign-in is asked for, as Gitea's
// repoAssignment runs before reqToken.
const repoAdmin = [scope('repository'), assignRepo, signedIn, reqRepoAdmin] as const;
const repoReader = [scope('repository'), assignRepo, reqActionsReader] as const;
const repoSignedReader = [scope('repository'), assignRepo, signedIn, reqActionsReader] as const;
const repoWriter = [...repoSignedReader, reqActionsWriter] as const;

const R = '/repos/{owner}/{repo}/actions';

export const actionsRoutes: RouteGroup[] = [
  group({ name: 'repository admins', prefix: R, guards: repoAdmin }, [
    get('/secrets', {
      id: 'repoListActionsSecrets', tag: 'repository', summary: 'Names of the repository\'s Actions secrets (never their values)', query: paging,
      responses: { 200: ['Secret'] },
    }, actionsSettings((m) => m.secrets.repo.list)),
    put('/secrets/{secretname}', {
      id: 'updateRepoSecret', tag: 'repository', summary: 'Set a repository Actions secret, creating it if new',
      body: actionsSettings.secretSchema, responses: { 201: null, 204: null },
    }, actionsSettings((m) => m.secrets.repo.put)),
    del('/secrets/{secretname}', {
      id: 'deleteRepoSecret', tag: 'repository', summary: 'Remove a repository Actions secret', responses: { 204: null },
    }, actionsSettings((m) => m.secrets.repo.remove)),
    get('/variables', {
      id: 'getRepoVariablesList', tag: 'repository', summary: 'The repository\'s Actions variables', query: paging,
      responses: { 200: ['ActionVariable'] },
    }, actionsSettings((m) => m.variables.repo.list)),
    get('/variables/{variablename}', {
      id: 'getRepoVariable', tag: 'repository', summary: 'One repository Actions variable', responses: { 200: 'ActionVariable' },
    }, actionsSettings((m) => m.variables.repo.get)),
    post('/variables/{variablename}', {
      id: 'createRepoVariable', tag: 'repository', summary: 'Add an Actions variable to the repository',
      body: actionsSettings.createVariableSchema, responses: { 201: null },
    }, actionsSettings((m) => m.variables.repo.create)),
    put('/variables/{variablename}', {
      id: 'updateRepoVariable', tag: 'repository', summary: 'Change a repository Actions variable\'s value or name',
      body: actionsSettings.updateVariableSchema, responses: { 201: null, 204: null },
    }, actionsSettings((m) => m.variables.repo.update)),
    del('/variables/{variablename}', {
      id: 'deleteRepoVariable', tag: 'repository', summary: 'Remove a repository Actions variable',
      responses: { 200: 'ActionVariable', 201: null, 204: null },
    }, actionsSettings((m) => m.variables.repo.remove)),
    get('/runners/registration-token', {
      id: 'repoGetRunnerRegistrationToken', tag: 'repository', summary: 'A token that registers runners for this repository',
      responses: { 200: null },
    }, actionsRunners((m) => m.runners.repo.registrationToken)),
    post('/runners/registration-token', {
      id: 'repoCreateRunnerRegistrationToken', tag: 'repository', summary: 'A token that registers runners for this repository (POST form)',
      responses: { 200: null },
    }, actionsRunners((m) => m.runners.repo.registrationToken)),
    get('/runners', { id: 'getRepoRunners', tag: 'repository', summary: 'Runners registered to this repository', responses: { 200: null } }, actionsRunners((m) => m.runners.repo.list)),
    get('/runners/{runner_id}', {
      id: 'getRepoRunner', tag: 'repository', summary: 'One runner registered to this repository', responses: { 200: null },
    }, actionsRunners((m) => m.runners.repo.get)),
    patch('/runners/{runner_id}', {
      id: 'updateRepoRunner', tag: 'repository', summary: 'Pause or resume a repository runner', extension: true, body: actionsRunners.editSchema,
      responses: { 204: null },
    }, actionsRunners((m) => m.runners.repo.edit)),
    del('/runners/{runner_id}', { id: 'deleteRepoRunner', tag: 'repository', summary: 'Unregister a repository runner', responses: { 204: null } }, actionsRunners((m) => m.runners.repo.remove)),
  ]),
  group({ name: 'actions readers, signed in', prefix: R, guards: repoSignedReader }, [
    get('/workflows', {
      id: 'ActionsListRepositoryWorkflows', tag: 'repository', summary: 'Workflow files found on the default branch',
      responses: { 200: 'ActionWorkflowResponse' },
    }, workflows.list),
    get('/workflows/{workflow_id}', {
      id: 'ActionsGetWorkflow', tag: 'repository', summary: 'One workflow file and its state', responses: { 200: 'ActionWorkflow' },
    }, workflows.get),
    get('/runs', {
      id: 'getWorkflowRuns', tag: 'repository', summary: 'Workflow runs of this repository, newest first',
      query: [q.str('event'), q.str('branch'), q.str('status'), q.str('actor'), q.str('head_sha'), ...paging],
      responses: { 200: 'ActionWorkflowRunsResponse' },
    }, runs((m) => m.repo.listRuns)),
    get('/jobs', {
      id: 'listWorkflowJobs', tag: 'repository', summary: 'Jobs of all workflow runs of this repository', query: [q.str('status'), ...paging],
      responses: { 200: 'ActionWorkflowJobsResponse' },
    }, runs((m) => m.repo.listJobs)),
    get('/jobs/{job_id}', { id: 'getWorkflowJob', tag: 'repository', summary: 'One job of a workflow run', responses: { 200: 'ActionWorkflowJob' } }, runs.getJob),
    get('/jobs/{job_id}/logs', {
      id: 'downloadActionsRunJobLogs', tag: 'repository', summary: 'The log of one job, as plain text', params: { job_id: 'integer' },
      responses: { 200: null },
    }, runs.jobLogs),
  ]),
  group({ name: 'actions writers', prefix: R, guards: repoWriter }, [
    put('/workflows/{workflow_id}/disable', {
      id: 'ActionsDisableWorkflow', tag: 'repository', summary: 'Stop a workflow from being triggered', responses: { 204: null },
    }, workflows.disable),
    put('/workflows/{workflow_id}/enable', {
      id: 'ActionsEnableWorkflow', tag: 'repository', summary: 'Let a disabled workflow be triggered again', responses: { 204: null },
    }, workflows.enable),
    post('/workflows/{workflow_id}/dispatches', {
      id: 'ActionsDispatchWorkflow', tag: 'repository', summary: 'Start a workflow by hand (workflow_dispatch)', body: workflows.dispatchSchema,
      responses: { 204: null },
    }, workflows.dispatch),
    del('/runs/{run}', {
      id: 'deleteActionRun', tag: 'repository', summary: 'Delete a finished workflow run with its jobs, logs and artifacts',
      params: { run: 'integer' }, responses: { 204: null },
    }, runs.deleteRun),
    post('/runs/{run}/cancel', {
      id: 'cancelWorkflowRun', tag: 'repository', summary: 'Cancel a workflow run and whatever of it is still running', extension: true,
      responses: { 204: null },
    }, runs.cancelRun),
    post('/runs/{run}/approve', {
      id: 'approveWorkflowRun', tag: 'repository', summary: 'Let a run waiting for approval (from a fork, say) start', extension: true,
      responses: { 204: null },
    }, runs.approveRun),
    del('/artifacts/{artifact_id}', {
      id: 'deleteArtifact', tag: 'repository', summary: 'Delete an artifact of a workflow run', responses: { 204: null },
    }, artifacts.remove),
  ]),
  group({ name: 'actions readers', prefix: R, guards: repoReader }, [
    get('/runs/{run}', { id: 'GetWorkflowRun', tag: 'repository', summary: 'One workflow run', responses: { 200: 'ActionWorkflowRun' } }, runs.getRun),
    get('/runs/{run}/jobs', {
      id: 'listWorkflowRunJobs', tag: 'repository', summary: 'Jobs of one workflow run', params: { run: 'integer' },
      query: [q.str('status'), ...paging], responses: { 200: 'ActionWorkflowJobsResponse' },
    }, runs.listRunJobs),
    get('/runs/{run}/artifacts', {
      id: 'getArtifactsOfRun', tag: 'repository', summary: 'Artifacts one workflow run uploaded', params: { run: 'integer' },
      query: [q.str('name')], responses: { 200: 'ActionArtifactsResponse' },
    }, artifacts.listOfRun),
    get('/tasks', {
      id: 'ListActionTasks', tag: 'repository', summary: 'Task attempts of the repository\'s jobs, newest first', query: paging,
      responses: { 200: 'ActionTaskResponse' },
    }, runs.listTasks),
    get('/artifacts', {
      id: 'getArtifacts', tag: 'repository', summary: 'Artifacts of all workflow runs of this repository', query: [q.str('name')],
      responses: { 200: 'ActionArtifactsResponse' },
    }, artifacts.list),
    get('/artifacts/{artifact_id}', {
      id: 'getArtifact', tag: 'repository', summary: 'One artifact of a workflow run', responses: { 200: 'ActionArtifact' },
    }, artifacts.get),
    get('/artifacts/{artifact_id}/zip', {
      id: 'downloadArtifact', tag: 'repository', summary: 'Download an artifact: a redirect to a short-lived signed address', responses: {},
    }, artifacts.download),
  ]),
  group({ name: 'the signed URL alone', prefix: R, guards: anyone }, [
    // Gitea's signed download address: the `sig` and `expires` parameters are the credentials.
    get('/artifacts/{artifact_id}/zip/raw', {
      id: 'downloadArtifactRaw', tag: 'repository', summary: 'The artifact\'s bytes, behind the signed address downloadArtifact hands out',
      extension: true, query: [q.str('sig', { required: true }), q.int('expires', { required: true })], responses: { 200: { type: 'file' } },
      produces: ['application/zip'],
    }, artifacts.downloadRaw),
  ]),
];

