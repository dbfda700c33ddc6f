import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { assignOrg, reqOrgOwner, scope, signedIn, siteAdmin } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const runs = lazyModule(() => import('./actions-runs'));
const { rejectPublicOnly } = lazyModule(() => import('./actions-scope'));
const actionsRunners = lazyModule(() => import('./actions-runners'));
const actionsSettings = lazyModule(() => import('./actions-settings'));

// The Actions settings, runners, runs and jobs of an organization (its owners), of the caller's
// own account, and of the instance (site admins); a repository's are in actions-routes.ts.

const orgOwner = [signedIn, scope('organization'), assignOrg, reqOrgOwner] as const;
const userSelf = [signedIn, scope('user'), rejectPublicOnly] as const;
const admin = [signedIn, scope('admin'), siteAdmin] as const;

const O = '/orgs/{org}/actions';
const orgRoutes: RouteGroup[] = [
  group({ name: 'organization owners', prefix: O, guards: orgOwner }, [
    get('/secrets', {
      id: 'orgListActionsSecrets', tag: 'organization', summary: 'Names of the organization\'s Actions secrets (never their values)',
      query: paging, responses: { 200: ['Secret'] },
    }, actionsSettings((m) => m.secrets.org.list)),
    put('/secrets/{secretname}', {
      id: 'updateOrgSecret', tag: 'organization', summary: 'Set an organization Actions secret, creating it if new',
      body: actionsSettings.secretSchema, responses: { 201: null, 204: null },
    }, actionsSettings((m) => m.secrets.org.put)),
    del('/secrets/{secretname}', {
      id: 'deleteOrgSecret', tag: 'organization', summary: 'Remove an organization Actions secret', responses: { 204: null },
    }, actionsSettings((m) => m.secrets.org.remove)),
    get('/variables', {
      id: 'getOrgVariablesList', tag: 'organization', summary: 'The organization\'s Actions variables', query: paging,
      responses: { 200: ['ActionVariable'] },
    }, actionsSettings((m) => m.variables.org.list)),
    get('/variables/{variablename}', {
      id: 'getOrgVariable', tag: 'organization', summary: 'One organization Actions variable', responses: { 200: 'ActionVariable' },
    }, actionsSettings((m) => m.variables.org.get)),
    post('/variables/{variablename}', {
      id: 'createOrgVariable', tag: 'organization', summary: 'Add an Actions variable to the organization',
      body: actionsSettings.createVariableSchema, responses: { 201: null },
    }, actionsSettings((m) => m.variables.org.create)),
    put('/variables/{variablename}', {
      id: 'updateOrgVariable', tag: 'organization', summary: 'Change an organization Actions variable\'s value or name',
      body: actionsSettings.updateVariableSchema, responses: { 201: null, 204: null },
    }, actionsSettings((m) => m.variables.org.update)),
    del('/variables/{variablename}', {
      id: 'deleteOrgVariable', tag: 'organization', summary: 'Remove an organization Actions variable',
      responses: { 200: 'ActionVariable', 201: null, 204: null },
    }, actionsSettings((m) => m.variables.org.remove)),
    get('/runners/registration-token', {
      id: 'orgGetRunnerRegistrationToken', tag: 'organization', summary: 'A token that registers runners for this organization',
      responses: { 200: null },
    }, actionsRunners((m) => m.runners.org.registrationToken)),
    post('/runners/registration-token', {
      id: 'orgCreateRunnerRegistrationToken', tag: 'organization', summary: 'A token that registers runners for this organization (POST form)',
      responses: { 200: null },
    }, actionsRunners((m) => m.runners.org.registrationToken)),
    get('/runners', { id: 'getOrgRunners', tag: 'organization', summary: 'Runners registered to this organization', responses: { 200: null } }, actionsRunners((m) => m.runners.org.list)),
    get('/runners/{runner_id}', {
      id: 'getOrgRunner', tag: 'organization', summary: 'One runner registered to this organization', responses: { 200: null },
    }, actionsRunners((m) => m.runners.org.get)),
    patch('/runners/{runner_id}', {
      id: 'updateOrgRunner', tag: 'organization', summary: 'Pause or resume an organization runner', extension: true,
      body: actionsRunners.editSchema, responses: { 204: null },
    }, actionsRunners((m) => m.runners.org.edit)),
    del('/runners/{runner_id}', {
      id: 'deleteOrgRunner', tag: 'organization', summary: 'Unregister an organization runner', responses: { 204: null },
    }, actionsRunners((m) => m.runners.org.remove)),
    get('/runs', {
      id: 'getOrgWorkflowRuns', tag: 'organization', summary: 'Workflow runs across the organization\'s repositories',
      query: [q.str('event'), q.str('branch'), q.str('status'), q.str('actor'), q.str('head_sha'), ...paging],
      responses: { 200: 'ActionWorkflowRunsResponse' },
    }, runs((m) => m.org.listRuns)),
    get('/jobs', {
      id: 'getOrgWorkflowJobs', tag: 'organization', summary: 'Workflow jobs across the organization\'s repositories',
      query: [q.str('status'), ...paging], responses: { 200: 'ActionWorkflowJobsResponse' },
    }, runs((m) => m.org.listJobs)),
  ]),
];

const U = '/user/actions';
const userRoutes: RouteGroup[] = [
  group({ name: 'the user themselves', prefix: U, guards: userSelf }, [
    put('/secrets/{secretname}', {
      id: 'updateUserSecret', tag: 'user', summary: 'Set one of the caller\'s own Actions secrets, creating it if new',
      body: actionsSettings.secretSchema, responses: { 201: null, 204: null },
    }, actionsSettings((m) => m.secrets.user.put)),
    del('/secrets/{secretname}', {
      id: 'deleteUserSecret', tag: 'user', summary: 'Remove one of the caller\'s own Actions secrets', responses: { 204: null },
    }, actionsSettings((m) => m.secrets.user.remove)),
    get('/variables', {
      id: 'getUserVariablesList', tag: 'user', summary: 'The caller\'s own Actions variables', query: paging,
      responses: { 200: ['ActionVariable'] },
    }, actionsSettings((m) => m.variables.user.list)),
    get('/variables/{variablename}', {
      id: 'getUserVariable', tag: 'user', summary: 'One of the caller\'s own Actions variables', responses: { 200: 'ActionVariable' },
    }, actionsSettings((m) => m.variables.user.get)),
    post('/variables/{variablename}', {
      id: 'createUserVariable', tag: 'user', summary: 'Add an Actions variable to the caller\'s account',
      body: actionsSettings.createVariableSchema, responses: { 201: null },
    }, actionsSettings((m) => m.variables.user.create)),
    put('/variables/{variablename}', {
      id: 'updateUserVariable', tag: 'user', summary: 'Change one of the caller\'s Actions variables', body: actionsSettings.updateVariableSchema,
      responses: { 201: null, 204: null },
    }, actionsSettings((m) => m.variables.user.update)),
    del('/variables/{variablename}', {
      id: 'deleteUserVariable', tag: 'user', summary: 'Remove one of the caller\'s Actions variables', responses: { 201: null, 204: null },
    }, actionsSettings((m) => m.variables.user.remove)),
    get('/runners/registration-token', {
      id: 'userGetRunnerRegistrationToken', tag: 'user', summary: 'A token that registers runners for the caller\'s repositories',
      responses: { 200: null },
    }, actionsRunners((m) => m.runners.user.registrationToken)),
    post('/runners/registration-token', {
      id: 'userCreateRunnerRegistrationToken', tag: 'user', summary: 'A token that registers runners for the caller\'s repositories (POST form)',
      responses: { 200: null },
    }, actionsRunners((m) => m.runners.user.registrationToken)),
    get('/runners', { id: 'getUserRunners', tag: 'user', summary: 'Runners registered to the caller', responses: { 200: null } }, actionsRunners((m) => m.runners.user.list)),
    get('/runners/{runner_id}', { id: 'getUserRunner', tag: 'user', summary: 'One runner registered to the caller', responses: { 200: null } }, actionsRunners((m) => m.runners.user.get)),
    patch('/runners/{runner_id}', {
      id: 'updateUserRunner', tag: 'user', summary: 'Pause or resume one of the caller\'s runners', extension: true,
      body: actionsRunners.editSchema, responses: { 204: null },
    }, actionsRunners((m) => m.runners.user.edit)),
    del('/runners/{runner_id}', {
      id: 'deleteUserRunner', tag: 'user', summary: 'Unregister one of the caller\'s runners', responses: { 204: null },
    }, actionsRunners((m) => m.runners.user.remove)),
    get('/runs', {
      id: 'getUserWorkflowRuns', tag: 'user', summary: 'Workflow runs across the caller\'s repositories',
      query: [q.str('event'), q.str('branch'), q.str('status'), q.str('actor'), q.str('head_sha'), ...paging],
      responses: { 200: 'ActionWorkflowRunsResponse' },
    }, runs((m) => m.user.listRuns)),
    get('/jobs', {
      id: 'getUserWorkflowJobs', tag: 'user', summary: 'Workflow jobs across the caller\'s repositories', query: [q.str('status'), ...paging],
      responses: { 200: 'ActionWorkflowJobsResponse' },
    }, runs((m) => m.user.listJobs)),
  ]),
];

const adminRoutes: RouteGroup[] = [
  group({ name: 'site admins', guards: admin }, [
    get('/admin/runners/registration-token', {
      id: 'adminGetRunnerRegistrationToken', tag: 'admin', summary: 'A token that registers instance-wide runners', responses: { 200: null },
    }, actionsRunners((m) => m.runners.admin.registrationToken)),
    post('/admin/actions/runners/registration-token', {
      id: 'adminCreateRunnerRegistrationToken', tag: 'admin', summary: 'A token that registers instance-wide runners (POST form)',
      responses: { 200: null },
    }, actionsRunners((m) => m.runners.admin.registrationToken)),
    get('/admin/actions/runners', { id: 'getAdminRunners', tag: 'admin', summary: 'Every runner of the instance', responses: { 200: null } }, actionsRunners((m) => m.runners.admin.list)),
    get('/admin/actions/runners/{runner_id}', {
      id: 'getAdminRunner', tag: 'admin', summary: 'One runner, wherever it is registered', responses: { 200: null },
    }, actionsRunners((m) => m.runners.admin.get)),
    patch('/admin/actions/runners/{runner_id}', {
      id: 'updateAdminRunner', tag: 'admin', summary: 'Pause or resume any runner', extension: true, body: actionsRunners.editSchema,
      responses: { 204: null },
    }, actionsRunners((m) => m.runners.admin.edit)),
    del('/admin/actions/runners/{runner_id}', {
      id: 'deleteAdminRunner', tag: 'admin', summary: 'Unregister any runner, wherever it is registered', responses: { 204: null },
    }, actionsRunners((m) => m.runners.admin.remove)),
    get('/admin/actions/runs', {
      id: 'listAdminWorkflowRuns', tag: 'admin', summary: 'Workflow runs of every repository',
      query: [q.str('event'), q.str('branch'), q.str('status'), q.str('actor'), q.str('head_sha'), ...paging],
      responses: { 200: 'ActionWorkflowRunsResponse' },
    }, runs((m) => m.admin.listRuns)),
    get('/admin/actions/jobs', {
      id: 'listAdminWorkflowJobs', tag: 'admin', summary: 'Workflow jobs of every repository', query: [q.str('status'), ...paging],
      responses: { 200: 'ActionWorkflowJobsResponse' },
    }, runs((m) => m.admin.listJobs)),
  ]),
];

export const actionsOwnerRoutes: RouteGroup[] = [...orgRoutes, ...userRoutes, ...adminRoutes];
