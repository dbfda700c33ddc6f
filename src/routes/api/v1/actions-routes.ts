import { scope, siteAdmin, signedIn } from '../../middleware/guards';
import { assignOrg, reqOrgOwner } from '../../middleware/org-guards';
import { assignRepo, repoUnitAccess, reqRepoAdmin } from '../../middleware/repo-guards';
import { ACCESS } from '../../../services/permissions';
import { del, get, patch, post, put, type ApiRoute } from '../../table';
import { rejectPublicOnly } from './actions-scope';
import { runners } from './actions-runners';
import { secrets, variables } from './actions-settings';
import * as runs from './actions-runs';
import * as workflows from './actions-workflows';
import * as artifacts from './actions-artifacts';

// The rows of every `.../actions/...` operation of the reference (issue 15), at each level it
// lists, with Gitea's guards: repository settings need repository admins, reading runs and jobs
// the actions unit, writing them (delete, cancel, approve, workflows) write on it; organization
// settings need its owners; user settings the user; instance ones site admins.

const reqActionsReader = repoUnitAccess('repo.actions', ACCESS.read);
const reqActionsWriter = repoUnitAccess('repo.actions', ACCESS.write);
const repoAdmin = [signedIn, scope('repository'), assignRepo, reqRepoAdmin] as const;
const repoReader = [scope('repository'), assignRepo, reqActionsReader] as const;
const repoSignedReader = [signedIn, ...repoReader] as const;
const repoWriter = [signedIn, ...repoReader, reqActionsWriter] as const;
const orgOwner = [signedIn, scope('organization'), assignOrg, reqOrgOwner] as const;
const userSelf = [signedIn, scope('user'), rejectPublicOnly] as const;
const admin = [signedIn, scope('admin'), siteAdmin] as const;

const R = '/repos/{owner}/{repo}/actions';

const repoRoutes: ApiRoute[] = [
  get(`${R}/secrets`, ['repository', 'repoListActionsSecrets', 'List an repo\'s actions secrets'], ...repoAdmin, secrets.repo.list),
  put(`${R}/secrets/{secretname}`, ['repository', 'updateRepoSecret', 'Create or Update a secret value in a repository'], ...repoAdmin, secrets.repo.put),
  del(`${R}/secrets/{secretname}`, ['repository', 'deleteRepoSecret', 'Delete a secret in a repository'], ...repoAdmin, secrets.repo.remove),
  get(`${R}/variables`, ['repository', 'getRepoVariablesList', 'Get repo-level variables list'], ...repoAdmin, variables.repo.list),
  get(`${R}/variables/{variablename}`, ['repository', 'getRepoVariable', 'Get a repo-level variable'], ...repoAdmin, variables.repo.get),
  post(`${R}/variables/{variablename}`, ['repository', 'createRepoVariable', 'Create a repo-level variable'], ...repoAdmin, variables.repo.create),
  put(`${R}/variables/{variablename}`, ['repository', 'updateRepoVariable', 'Update a repo-level variable'], ...repoAdmin, variables.repo.update),
  del(`${R}/variables/{variablename}`, ['repository', 'deleteRepoVariable', 'Delete a repo-level variable'], ...repoAdmin, variables.repo.remove),
  get(`${R}/runners/registration-token`, ['repository', 'repoGetRunnerRegistrationToken', 'Get a repository\'s actions runner registration token'], ...repoAdmin, runners.repo.registrationToken),
  post(`${R}/runners/registration-token`, ['repository', 'repoCreateRunnerRegistrationToken', 'Get a repository\'s actions runner registration token'], ...repoAdmin, runners.repo.registrationToken),
  get(`${R}/runners`, ['repository', 'getRepoRunners', 'Get repo-level runners'], ...repoAdmin, runners.repo.list),
  get(`${R}/runners/{runner_id}`, ['repository', 'getRepoRunner', 'Get an repo-level runner'], ...repoAdmin, runners.repo.get),
  patch(`${R}/runners/{runner_id}`, ['repository', 'updateRepoRunner', 'Enable or disable a repo-level runner (hearth extension, as Gitea 1.26)', 'extension'], ...repoAdmin, runners.repo.edit),
  del(`${R}/runners/{runner_id}`, ['repository', 'deleteRepoRunner', 'Delete an repo-level runner'], ...repoAdmin, runners.repo.remove),

  get(`${R}/workflows`, ['repository', 'ActionsListRepositoryWorkflows', 'List repository workflows'], ...repoSignedReader, workflows.list),
  get(`${R}/workflows/{workflow_id}`, ['repository', 'ActionsGetWorkflow', 'Get a workflow'], ...repoSignedReader, workflows.get),
  put(`${R}/workflows/{workflow_id}/disable`, ['repository', 'ActionsDisableWorkflow', 'Disable a workflow'], ...repoWriter, workflows.disable),
  put(`${R}/workflows/{workflow_id}/enable`, ['repository', 'ActionsEnableWorkflow', 'Enable a workflow'], ...repoWriter, workflows.enable),
  post(`${R}/workflows/{workflow_id}/dispatches`, ['repository', 'ActionsDispatchWorkflow', 'Create a workflow dispatch event'], ...repoWriter, workflows.dispatch),

  get(`${R}/runs`, ['repository', 'getWorkflowRuns', 'Lists all runs for a repository run'], ...repoSignedReader, runs.repo.listRuns),
  get(`${R}/runs/{run}`, ['repository', 'GetWorkflowRun', 'Gets a specific workflow run'], ...repoReader, runs.getRun),
  del(`${R}/runs/{run}`, ['repository', 'deleteActionRun', 'Delete a workflow run'], ...repoWriter, runs.deleteRun),
  post(`${R}/runs/{run}/cancel`, ['repository', 'cancelWorkflowRun', 'Cancel a workflow run and its running jobs, 204 (hearth extension)', 'extension'], ...repoWriter, runs.cancelRun),
  post(`${R}/runs/{run}/approve`, ['repository', 'approveWorkflowRun', 'Approve a workflow run that requires approval (hearth extension, as Gitea after 1.25)', 'extension'], ...repoWriter, runs.approveRun),
  get(`${R}/runs/{run}/jobs`, ['repository', 'listWorkflowRunJobs', 'Lists all jobs for a workflow run'], ...repoReader, runs.listRunJobs),
  get(`${R}/runs/{run}/artifacts`, ['repository', 'getArtifactsOfRun', 'Lists all artifacts for a repository run'], ...repoReader, artifacts.listOfRun),
  get(`${R}/jobs`, ['repository', 'listWorkflowJobs', 'Lists all jobs for a repository'], ...repoSignedReader, runs.repo.listJobs),
  get(`${R}/jobs/{job_id}`, ['repository', 'getWorkflowJob', 'Gets a specific workflow job for a workflow run'], ...repoSignedReader, runs.getJob),
  get(`${R}/jobs/{job_id}/logs`, ['repository', 'downloadActionsRunJobLogs', 'Downloads the job logs for a workflow run'], ...repoSignedReader, runs.jobLogs),
  get(`${R}/tasks`, ['repository', 'ListActionTasks', 'List a repository\'s action tasks'], ...repoReader, runs.listTasks),
  get(`${R}/artifacts`, ['repository', 'getArtifacts', 'Lists all artifacts for a repository'], ...repoReader, artifacts.list),
  get(`${R}/artifacts/{artifact_id}`, ['repository', 'getArtifact', 'Gets a specific artifact for a workflow run'], ...repoReader, artifacts.get),
  del(`${R}/artifacts/{artifact_id}`, ['repository', 'deleteArtifact', 'Deletes a specific artifact for a workflow run'], ...repoWriter, artifacts.remove),
  get(`${R}/artifacts/{artifact_id}/zip`, ['repository', 'downloadArtifact', 'Downloads a specific artifact for a workflow run redirects to blob url'], ...repoReader, artifacts.download),
  // Gitea's signed download address: the `sig` and `expires` parameters are the credentials.
  get(`${R}/artifacts/{artifact_id}/zip/raw`, ['repository', 'downloadArtifactRaw', 'The artifact behind a signed download URL (hearth extension, as Gitea serves it)', 'extension'], artifacts.downloadRaw),
];

const O = '/orgs/{org}/actions';
const orgRoutes: ApiRoute[] = [
  get(`${O}/secrets`, ['organization', 'orgListActionsSecrets', 'List an organization\'s actions secrets'], ...orgOwner, secrets.org.list),
  put(`${O}/secrets/{secretname}`, ['organization', 'updateOrgSecret', 'Create or Update a secret value in an organization'], ...orgOwner, secrets.org.put),
  del(`${O}/secrets/{secretname}`, ['organization', 'deleteOrgSecret', 'Delete a secret in an organization'], ...orgOwner, secrets.org.remove),
  get(`${O}/variables`, ['organization', 'getOrgVariablesList', 'Get an org-level variables list'], ...orgOwner, variables.org.list),
  get(`${O}/variables/{variablename}`, ['organization', 'getOrgVariable', 'Get an org-level variable'], ...orgOwner, variables.org.get),
  post(`${O}/variables/{variablename}`, ['organization', 'createOrgVariable', 'Create an org-level variable'], ...orgOwner, variables.org.create),
  put(`${O}/variables/{variablename}`, ['organization', 'updateOrgVariable', 'Update an org-level variable'], ...orgOwner, variables.org.update),
  del(`${O}/variables/{variablename}`, ['organization', 'deleteOrgVariable', 'Delete an org-level variable'], ...orgOwner, variables.org.remove),
  get(`${O}/runners/registration-token`, ['organization', 'orgGetRunnerRegistrationToken', 'Get an organization\'s actions runner registration token'], ...orgOwner, runners.org.registrationToken),
  post(`${O}/runners/registration-token`, ['organization', 'orgCreateRunnerRegistrationToken', 'Get an organization\'s actions runner registration token'], ...orgOwner, runners.org.registrationToken),
  get(`${O}/runners`, ['organization', 'getOrgRunners', 'Get org-level runners'], ...orgOwner, runners.org.list),
  get(`${O}/runners/{runner_id}`, ['organization', 'getOrgRunner', 'Get an org-level runner'], ...orgOwner, runners.org.get),
  patch(`${O}/runners/{runner_id}`, ['organization', 'updateOrgRunner', 'Enable or disable an org-level runner (hearth extension, as Gitea 1.26)', 'extension'], ...orgOwner, runners.org.edit),
  del(`${O}/runners/{runner_id}`, ['organization', 'deleteOrgRunner', 'Delete an org-level runner'], ...orgOwner, runners.org.remove),
  get(`${O}/runs`, ['organization', 'getOrgWorkflowRuns', 'Get org-level workflow runs'], ...orgOwner, runs.org.listRuns),
  get(`${O}/jobs`, ['organization', 'getOrgWorkflowJobs', 'Get org-level workflow jobs'], ...orgOwner, runs.org.listJobs),
];

const U = '/user/actions';
const userRoutes: ApiRoute[] = [
  put(`${U}/secrets/{secretname}`, ['user', 'updateUserSecret', 'Create or Update a secret value in a user scope'], ...userSelf, secrets.user.put),
  del(`${U}/secrets/{secretname}`, ['user', 'deleteUserSecret', 'Delete a secret in a user scope'], ...userSelf, secrets.user.remove),
  get(`${U}/variables`, ['user', 'getUserVariablesList', 'Get the user-level list of variables which is created by current doer'], ...userSelf, variables.user.list),
  get(`${U}/variables/{variablename}`, ['user', 'getUserVariable', 'Get a user-level variable which is created by current doer'], ...userSelf, variables.user.get),
  post(`${U}/variables/{variablename}`, ['user', 'createUserVariable', 'Create a user-level variable'], ...userSelf, variables.user.create),
  put(`${U}/variables/{variablename}`, ['user', 'updateUserVariable', 'Update a user-level variable which is created by current doer'], ...userSelf, variables.user.update),
  del(`${U}/variables/{variablename}`, ['user', 'deleteUserVariable', 'Delete a user-level variable which is created by current doer'], ...userSelf, variables.user.remove),
  get(`${U}/runners/registration-token`, ['user', 'userGetRunnerRegistrationToken', 'Get an user\'s actions runner registration token'], ...userSelf, runners.user.registrationToken),
  post(`${U}/runners/registration-token`, ['user', 'userCreateRunnerRegistrationToken', 'Get an user\'s actions runner registration token'], ...userSelf, runners.user.registrationToken),
  get(`${U}/runners`, ['user', 'getUserRunners', 'Get user-level runners'], ...userSelf, runners.user.list),
  get(`${U}/runners/{runner_id}`, ['user', 'getUserRunner', 'Get an user-level runner'], ...userSelf, runners.user.get),
  patch(`${U}/runners/{runner_id}`, ['user', 'updateUserRunner', 'Enable or disable a user-level runner (hearth extension, as Gitea 1.26)', 'extension'], ...userSelf, runners.user.edit),
  del(`${U}/runners/{runner_id}`, ['user', 'deleteUserRunner', 'Delete an user-level runner'], ...userSelf, runners.user.remove),
  get(`${U}/runs`, ['user', 'getUserWorkflowRuns', 'Get workflow runs'], ...userSelf, runs.user.listRuns),
  get(`${U}/jobs`, ['user', 'getUserWorkflowJobs', 'Get workflow jobs'], ...userSelf, runs.user.listJobs),
];

const adminRoutes: ApiRoute[] = [
  get('/admin/runners/registration-token', ['admin', 'adminGetRunnerRegistrationToken', 'Get an global actions runner registration token'], ...admin, runners.admin.registrationToken),
  post('/admin/actions/runners/registration-token', ['admin', 'adminCreateRunnerRegistrationToken', 'Get an global actions runner registration token'], ...admin, runners.admin.registrationToken),
  get('/admin/actions/runners', ['admin', 'getAdminRunners', 'Get all runners'], ...admin, runners.admin.list),
  get('/admin/actions/runners/{runner_id}', ['admin', 'getAdminRunner', 'Get an global runner'], ...admin, runners.admin.get),
  patch('/admin/actions/runners/{runner_id}', ['admin', 'updateAdminRunner', 'Enable or disable a global runner (hearth extension, as Gitea 1.26)', 'extension'], ...admin, runners.admin.edit),
  del('/admin/actions/runners/{runner_id}', ['admin', 'deleteAdminRunner', 'Delete an global runner'], ...admin, runners.admin.remove),
  get('/admin/actions/runs', ['admin', 'listAdminWorkflowRuns', 'Lists all runs'], ...admin, runs.admin.listRuns),
  get('/admin/actions/jobs', ['admin', 'listAdminWorkflowJobs', 'Lists all jobs'], ...admin, runs.admin.listJobs),
];

export const actionsRoutes: ApiRoute[] = [...repoRoutes, ...orgRoutes, ...userRoutes, ...adminRoutes];
