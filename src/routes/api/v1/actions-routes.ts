import { scope, siteAdmin, signedIn } from '../../middleware/guards';
import { assignOrg, reqOrgOwner } from '../../middleware/org-guards';
import { assignRepo, repoUnitAccess, reqRepoAdmin } from '../../middleware/repo-guards';
import { ACCESS } from '../../../services/permissions';
import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { anyone } from './route-chains';
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

const repoRoutes: RouteGroup[] = [
  group({ name: 'repository admins', prefix: R, guards: repoAdmin }, [
    get('/secrets', ['repository', 'repoListActionsSecrets', 'List an repo\'s actions secrets'], secrets.repo.list),
    put('/secrets/{secretname}', ['repository', 'updateRepoSecret', 'Create or Update a secret value in a repository'], secrets.repo.put),
    del('/secrets/{secretname}', ['repository', 'deleteRepoSecret', 'Delete a secret in a repository'], secrets.repo.remove),
    get('/variables', ['repository', 'getRepoVariablesList', 'Get repo-level variables list'], variables.repo.list),
    get('/variables/{variablename}', ['repository', 'getRepoVariable', 'Get a repo-level variable'], variables.repo.get),
    post('/variables/{variablename}', ['repository', 'createRepoVariable', 'Create a repo-level variable'], variables.repo.create),
    put('/variables/{variablename}', ['repository', 'updateRepoVariable', 'Update a repo-level variable'], variables.repo.update),
    del('/variables/{variablename}', ['repository', 'deleteRepoVariable', 'Delete a repo-level variable'], variables.repo.remove),
    get('/runners/registration-token', ['repository', 'repoGetRunnerRegistrationToken', 'Get a repository\'s actions runner registration token'], runners.repo.registrationToken),
    post('/runners/registration-token', ['repository', 'repoCreateRunnerRegistrationToken', 'Get a repository\'s actions runner registration token'], runners.repo.registrationToken),
    get('/runners', ['repository', 'getRepoRunners', 'Get repo-level runners'], runners.repo.list),
    get('/runners/{runner_id}', ['repository', 'getRepoRunner', 'Get an repo-level runner'], runners.repo.get),
    patch('/runners/{runner_id}', ['repository', 'updateRepoRunner', 'Enable or disable a repo-level runner (hearth extension, as Gitea 1.26)', 'extension'], runners.repo.edit),
    del('/runners/{runner_id}', ['repository', 'deleteRepoRunner', 'Delete an repo-level runner'], runners.repo.remove),
  ]),
  group({ name: 'actions readers, signed in', prefix: R, guards: repoSignedReader }, [
    get('/workflows', ['repository', 'ActionsListRepositoryWorkflows', 'List repository workflows'], workflows.list),
    get('/workflows/{workflow_id}', ['repository', 'ActionsGetWorkflow', 'Get a workflow'], workflows.get),
    get('/runs', ['repository', 'getWorkflowRuns', 'Lists all runs for a repository run'], runs.repo.listRuns),
    get('/jobs', ['repository', 'listWorkflowJobs', 'Lists all jobs for a repository'], runs.repo.listJobs),
    get('/jobs/{job_id}', ['repository', 'getWorkflowJob', 'Gets a specific workflow job for a workflow run'], runs.getJob),
    get('/jobs/{job_id}/logs', ['repository', 'downloadActionsRunJobLogs', 'Downloads the job logs for a workflow run'], runs.jobLogs),
  ]),
  group({ name: 'actions writers', prefix: R, guards: repoWriter }, [
    put('/workflows/{workflow_id}/disable', ['repository', 'ActionsDisableWorkflow', 'Disable a workflow'], workflows.disable),
    put('/workflows/{workflow_id}/enable', ['repository', 'ActionsEnableWorkflow', 'Enable a workflow'], workflows.enable),
    post('/workflows/{workflow_id}/dispatches', ['repository', 'ActionsDispatchWorkflow', 'Create a workflow dispatch event'], workflows.dispatch),
    del('/runs/{run}', ['repository', 'deleteActionRun', 'Delete a workflow run'], runs.deleteRun),
    post('/runs/{run}/cancel', ['repository', 'cancelWorkflowRun', 'Cancel a workflow run and its running jobs, 204 (hearth extension)', 'extension'], runs.cancelRun),
    post('/runs/{run}/approve', ['repository', 'approveWorkflowRun', 'Approve a workflow run that requires approval (hearth extension, as Gitea after 1.25)', 'extension'], runs.approveRun),
    del('/artifacts/{artifact_id}', ['repository', 'deleteArtifact', 'Deletes a specific artifact for a workflow run'], artifacts.remove),
  ]),
  group({ name: 'actions readers', prefix: R, guards: repoReader }, [
    get('/runs/{run}', ['repository', 'GetWorkflowRun', 'Gets a specific workflow run'], runs.getRun),
    get('/runs/{run}/jobs', ['repository', 'listWorkflowRunJobs', 'Lists all jobs for a workflow run'], runs.listRunJobs),
    get('/runs/{run}/artifacts', ['repository', 'getArtifactsOfRun', 'Lists all artifacts for a repository run'], artifacts.listOfRun),
    get('/tasks', ['repository', 'ListActionTasks', 'List a repository\'s action tasks'], runs.listTasks),
    get('/artifacts', ['repository', 'getArtifacts', 'Lists all artifacts for a repository'], artifacts.list),
    get('/artifacts/{artifact_id}', ['repository', 'getArtifact', 'Gets a specific artifact for a workflow run'], artifacts.get),
    get('/artifacts/{artifact_id}/zip', ['repository', 'downloadArtifact', 'Downloads a specific artifact for a workflow run redirects to blob url'], artifacts.download),
  ]),
  group({ name: 'the signed URL alone', prefix: R, guards: anyone }, [
    // Gitea's signed download address: the `sig` and `expires` parameters are the credentials.
    get('/artifacts/{artifact_id}/zip/raw', ['repository', 'downloadArtifactRaw', 'The artifact behind a signed download URL (hearth extension, as Gitea serves it)', 'extension'], artifacts.downloadRaw),
  ]),
];

const O = '/orgs/{org}/actions';
const orgRoutes: RouteGroup[] = [
  group({ name: 'organization owners', prefix: O, guards: orgOwner }, [
    get('/secrets', ['organization', 'orgListActionsSecrets', 'List an organization\'s actions secrets'], secrets.org.list),
    put('/secrets/{secretname}', ['organization', 'updateOrgSecret', 'Create or Update a secret value in an organization'], secrets.org.put),
    del('/secrets/{secretname}', ['organization', 'deleteOrgSecret', 'Delete a secret in an organization'], secrets.org.remove),
    get('/variables', ['organization', 'getOrgVariablesList', 'Get an org-level variables list'], variables.org.list),
    get('/variables/{variablename}', ['organization', 'getOrgVariable', 'Get an org-level variable'], variables.org.get),
    post('/variables/{variablename}', ['organization', 'createOrgVariable', 'Create an org-level variable'], variables.org.create),
    put('/variables/{variablename}', ['organization', 'updateOrgVariable', 'Update an org-level variable'], variables.org.update),
    del('/variables/{variablename}', ['organization', 'deleteOrgVariable', 'Delete an org-level variable'], variables.org.remove),
    get('/runners/registration-token', ['organization', 'orgGetRunnerRegistrationToken', 'Get an organization\'s actions runner registration token'], runners.org.registrationToken),
    post('/runners/registration-token', ['organization', 'orgCreateRunnerRegistrationToken', 'Get an organization\'s actions runner registration token'], runners.org.registrationToken),
    get('/runners', ['organization', 'getOrgRunners', 'Get org-level runners'], runners.org.list),
    get('/runners/{runner_id}', ['organization', 'getOrgRunner', 'Get an org-level runner'], runners.org.get),
    patch('/runners/{runner_id}', ['organization', 'updateOrgRunner', 'Enable or disable an org-level runner (hearth extension, as Gitea 1.26)', 'extension'], runners.org.edit),
    del('/runners/{runner_id}', ['organization', 'deleteOrgRunner', 'Delete an org-level runner'], runners.org.remove),
    get('/runs', ['organization', 'getOrgWorkflowRuns', 'Get org-level workflow runs'], runs.org.listRuns),
    get('/jobs', ['organization', 'getOrgWorkflowJobs', 'Get org-level workflow jobs'], runs.org.listJobs),
  ]),
];

const U = '/user/actions';
const userRoutes: RouteGroup[] = [
  group({ name: 'the user themselves', prefix: U, guards: userSelf }, [
    put('/secrets/{secretname}', ['user', 'updateUserSecret', 'Create or Update a secret value in a user scope'], secrets.user.put),
    del('/secrets/{secretname}', ['user', 'deleteUserSecret', 'Delete a secret in a user scope'], secrets.user.remove),
    get('/variables', ['user', 'getUserVariablesList', 'Get the user-level list of variables which is created by current doer'], variables.user.list),
    get('/variables/{variablename}', ['user', 'getUserVariable', 'Get a user-level variable which is created by current doer'], variables.user.get),
    post('/variables/{variablename}', ['user', 'createUserVariable', 'Create a user-level variable'], variables.user.create),
    put('/variables/{variablename}', ['user', 'updateUserVariable', 'Update a user-level variable which is created by current doer'], variables.user.update),
    del('/variables/{variablename}', ['user', 'deleteUserVariable', 'Delete a user-level variable which is created by current doer'], variables.user.remove),
    get('/runners/registration-token', ['user', 'userGetRunnerRegistrationToken', 'Get an user\'s actions runner registration token'], runners.user.registrationToken),
    post('/runners/registration-token', ['user', 'userCreateRunnerRegistrationToken', 'Get an user\'s actions runner registration token'], runners.user.registrationToken),
    get('/runners', ['user', 'getUserRunners', 'Get user-level runners'], runners.user.list),
    get('/runners/{runner_id}', ['user', 'getUserRunner', 'Get an user-level runner'], runners.user.get),
    patch('/runners/{runner_id}', ['user', 'updateUserRunner', 'Enable or disable a user-level runner (hearth extension, as Gitea 1.26)', 'extension'], runners.user.edit),
    del('/runners/{runner_id}', ['user', 'deleteUserRunner', 'Delete an user-level runner'], runners.user.remove),
    get('/runs', ['user', 'getUserWorkflowRuns', 'Get workflow runs'], runs.user.listRuns),
    get('/jobs', ['user', 'getUserWorkflowJobs', 'Get workflow jobs'], runs.user.listJobs),
  ]),
];

const adminRoutes: RouteGroup[] = [
  group({ name: 'site admins', guards: admin }, [
    get('/admin/runners/registration-token', ['admin', 'adminGetRunnerRegistrationToken', 'Get an global actions runner registration token'], runners.admin.registrationToken),
    post('/admin/actions/runners/registration-token', ['admin', 'adminCreateRunnerRegistrationToken', 'Get an global actions runner registration token'], runners.admin.registrationToken),
    get('/admin/actions/runners', ['admin', 'getAdminRunners', 'Get all runners'], runners.admin.list),
    get('/admin/actions/runners/{runner_id}', ['admin', 'getAdminRunner', 'Get an global runner'], runners.admin.get),
    patch('/admin/actions/runners/{runner_id}', ['admin', 'updateAdminRunner', 'Enable or disable a global runner (hearth extension, as Gitea 1.26)', 'extension'], runners.admin.edit),
    del('/admin/actions/runners/{runner_id}', ['admin', 'deleteAdminRunner', 'Delete an global runner'], runners.admin.remove),
    get('/admin/actions/runs', ['admin', 'listAdminWorkflowRuns', 'Lists all runs'], runs.admin.listRuns),
    get('/admin/actions/jobs', ['admin', 'listAdminWorkflowJobs', 'Lists all jobs'], runs.admin.listJobs),
  ]),
];

export const actionsRoutes: RouteGroup[] = [...repoRoutes, ...orgRoutes, ...userRoutes, ...adminRoutes];
