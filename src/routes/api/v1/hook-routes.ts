import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, byId, currentUser, orgOwners, repoAdmins, siteAdmins, type Guards } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const deliveries = lazyModule(() => import('./hook-deliveries'));
const hooks = lazyModule(() => import('./hooks'));

// Webhooks at every level (repository, organization, user, instance), their deliveries, and git hooks.

const gitHookAdmins: Guards = [...repoAdmins(), hooks.reqGitHook];

export const hookRoutes: RouteGroup[] = [
  group({ name: 'repository admins', prefix: R, guards: repoAdmins() }, [
    get('/hooks', { id: 'repoListHooks', tag: 'repository', summary: 'The repository\'s webhooks', query: paging, responses: { 200: ['Hook'] } }, hooks((m) => m.repo.list)),
    post('/hooks', {
      id: 'repoCreateHook', tag: 'repository', summary: 'Add a webhook to the repository', body: hooks.createSchema, responses: { 201: 'Hook' },
    }, hooks((m) => m.repo.create)),
  ]),
  group({ name: 'git hook admins', prefix: R, guards: gitHookAdmins }, [
    get('/hooks/git', { id: 'repoListGitHooks', tag: 'repository', summary: 'The repository\'s server-side git hooks', responses: { 200: ['GitHook'] } }, hooks.listGit),
    get('/hooks/git/{id}', { id: 'repoGetGitHook', tag: 'repository', summary: 'One server-side git hook', responses: { 200: 'GitHook' } }, hooks.getGit),
    patch('/hooks/git/{id}', {
      id: 'repoEditGitHook', tag: 'repository', summary: 'Change a server-side git hook\'s script', body: hooks.gitHookSchema,
      responses: { 200: 'GitHook' },
    }, hooks.editGit),
    del('/hooks/git/{id}', { id: 'repoDeleteGitHook', tag: 'repository', summary: 'Empty a server-side git hook', responses: { 204: null } }, hooks.removeGit),
  ]),
  group({ name: 'repository admins, by id', prefix: R, guards: byId(repoAdmins()) }, [
    get('/hooks/{id}', {
      id: 'repoGetHook', tag: 'repository', summary: 'One of the repository\'s webhooks', params: { id: 'int64' }, responses: { 200: 'Hook' },
    }, hooks((m) => m.repo.get)),
    patch('/hooks/{id}', {
      id: 'repoEditHook', tag: 'repository', summary: 'Change one of the repository\'s webhooks', params: { id: 'int64' }, body: hooks.editSchema,
      responses: { 200: 'Hook' },
    }, hooks((m) => m.repo.edit)),
    del('/hooks/{id}', {
      id: 'repoDeleteHook', tag: 'repository', summary: 'Remove one of the repository\'s webhooks', params: { id: 'int64' },
      responses: { 204: null },
    }, hooks((m) => m.repo.remove)),
    post('/hooks/{id}/tests', {
      id: 'repoTestHook', tag: 'repository', summary: 'Send a webhook a sample push event', params: { id: 'int64' }, query: [q.str('ref')],
      responses: { 204: null },
    }, deliveries.test),
    get('/hooks/{id}/deliveries', {
      id: 'repoListHookDeliveries', tag: 'repository', summary: 'A repository webhook\'s deliveries, newest first', extension: true,
      params: { id: 'int64' }, query: paging, responses: { 200: ['HookDelivery'] },
    }, deliveries((m) => m.repo.list)),
    get('/hooks/{id}/deliveries/{delivery_id}', {
      id: 'repoGetHookDelivery', tag: 'repository', summary: 'One delivery, with the request sent and the answer received', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 200: 'HookDeliveryDetail' },
    }, deliveries((m) => m.repo.get)),
    post('/hooks/{id}/deliveries/{delivery_id}/attempts', {
      id: 'repoRedeliverHookDelivery', tag: 'repository', summary: 'Send a delivery again now', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 202: 'HookDelivery' },
    }, deliveries((m) => m.repo.redeliver)),
  ]),
  group({ name: 'organization owners', guards: orgOwners }, [
    get('/orgs/{org}/hooks', {
      id: 'orgListHooks', tag: 'organization', summary: 'The organization\'s webhooks', query: paging, responses: { 200: ['Hook'] },
    }, hooks((m) => m.org.list)),
    post('/orgs/{org}/hooks', {
      id: 'orgCreateHook', tag: 'organization', summary: 'Add a webhook to the organization', body: { of: hooks.createSchema, required: true },
      responses: { 201: 'Hook' },
    }, hooks((m) => m.org.create)),
  ]),
  group({ name: 'organization owners, by id', guards: byId(orgOwners) }, [
    get('/orgs/{org}/hooks/{id}', {
      id: 'orgGetHook', tag: 'organization', summary: 'One of the organization\'s webhooks', params: { id: 'int64' }, responses: { 200: 'Hook' },
    }, hooks((m) => m.org.get)),
    patch('/orgs/{org}/hooks/{id}', {
      id: 'orgEditHook', tag: 'organization', summary: 'Change one of the organization\'s webhooks', params: { id: 'int64' },
      body: hooks.editSchema, responses: { 200: 'Hook' },
    }, hooks((m) => m.org.edit)),
    del('/orgs/{org}/hooks/{id}', {
      id: 'orgDeleteHook', tag: 'organization', summary: 'Remove one of the organization\'s webhooks', params: { id: 'int64' },
      responses: { 204: null },
    }, hooks((m) => m.org.remove)),
    get('/orgs/{org}/hooks/{id}/deliveries', {
      id: 'orgListHookDeliveries', tag: 'organization', summary: 'An organization webhook\'s deliveries, newest first', extension: true,
      params: { id: 'int64' }, query: paging, responses: { 200: ['HookDelivery'] },
    }, deliveries((m) => m.org.list)),
    get('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}', {
      id: 'orgGetHookDelivery', tag: 'organization', summary: 'One delivery, with the request sent and the answer received', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 200: 'HookDeliveryDetail' },
    }, deliveries((m) => m.org.get)),
    post('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}/attempts', {
      id: 'orgRedeliverHookDelivery', tag: 'organization', summary: 'Send a delivery again now', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 202: 'HookDelivery' },
    }, deliveries((m) => m.org.redeliver)),
  ]),
  group({ name: 'the caller', guards: currentUser }, [
    get('/user/hooks', { id: 'userListHooks', tag: 'user', summary: 'The caller\'s own webhooks', query: paging, responses: { 200: ['Hook'] } }, hooks((m) => m.user.list)),
    post('/user/hooks', {
      id: 'userCreateHook', tag: 'user', summary: 'Add a webhook to the caller\'s account', body: { of: hooks.createSchema, required: true },
      responses: { 201: 'Hook' },
    }, hooks((m) => m.user.create)),
  ]),
  group({ name: 'the caller, by id', guards: byId(currentUser) }, [
    get('/user/hooks/{id}', {
      id: 'userGetHook', tag: 'user', summary: 'One of the caller\'s webhooks', params: { id: 'int64' }, responses: { 200: 'Hook' },
    }, hooks((m) => m.user.get)),
    patch('/user/hooks/{id}', {
      id: 'userEditHook', tag: 'user', summary: 'Change one of the caller\'s webhooks', params: { id: 'int64' }, body: hooks.editSchema,
      responses: { 200: 'Hook' },
    }, hooks((m) => m.user.edit)),
    del('/user/hooks/{id}', {
      id: 'userDeleteHook', tag: 'user', summary: 'Remove one of the caller\'s webhooks', params: { id: 'int64' }, responses: { 204: null },
    }, hooks((m) => m.user.remove)),
    get('/user/hooks/{id}/deliveries', {
      id: 'userListHookDeliveries', tag: 'user', summary: 'A user webhook\'s deliveries, newest first', extension: true, params: { id: 'int64' },
      query: paging, responses: { 200: ['HookDelivery'] },
    }, deliveries((m) => m.user.list)),
    get('/user/hooks/{id}/deliveries/{delivery_id}', {
      id: 'userGetHookDelivery', tag: 'user', summary: 'One delivery, with the request sent and the answer received', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 200: 'HookDeliveryDetail' },
    }, deliveries((m) => m.user.get)),
    post('/user/hooks/{id}/deliveries/{delivery_id}/attempts', {
      id: 'userRedeliverHookDelivery', tag: 'user', summary: 'Send a delivery again now', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 202: 'HookDelivery' },
    }, deliveries((m) => m.user.redeliver)),
  ]),
  group({ name: 'site admins', guards: siteAdmins }, [
    get('/admin/hooks', {
      id: 'adminListHooks', tag: 'admin', summary: 'Instance-wide webhooks (system, default, or both)',
      query: [q.int('page'), q.int('limit'), q.str('type', { enum: ['system', 'default', 'all'], default: 'system' })],
      responses: { 200: ['Hook'] },
    }, hooks((m) => m.admin.list)),
    post('/admin/hooks', {
      id: 'adminCreateHook', tag: 'admin', summary: 'Add an instance-wide webhook', body: { of: hooks.createSchema, required: true },
      responses: { 201: 'Hook' },
    }, hooks((m) => m.admin.create)),
  ]),
  group({ name: 'site admins, by id', guards: byId(siteAdmins) }, [
    get('/admin/hooks/{id}', {
      id: 'adminGetHook', tag: 'admin', summary: 'One instance-wide webhook', params: { id: 'int64' }, responses: { 200: 'Hook' },
    }, hooks((m) => m.admin.get)),
    patch('/admin/hooks/{id}', {
      id: 'adminEditHook', tag: 'admin', summary: 'Change an instance-wide webhook', params: { id: 'int64' }, body: hooks.editSchema,
      responses: { 200: 'Hook' },
    }, hooks((m) => m.admin.edit)),
    del('/admin/hooks/{id}', {
      id: 'adminDeleteHook', tag: 'admin', summary: 'Remove an instance-wide webhook', params: { id: 'int64' }, responses: { 204: null },
    }, hooks((m) => m.admin.remove)),
    get('/admin/hooks/{id}/deliveries', {
      id: 'adminListHookDeliveries', tag: 'admin', summary: 'An instance-wide webhook\'s deliveries, newest first', extension: true,
      params: { id: 'int64' }, query: paging, responses: { 200: ['HookDelivery'] },
    }, deliveries((m) => m.admin.list)),
    get('/admin/hooks/{id}/deliveries/{delivery_id}', {
      id: 'adminGetHookDelivery', tag: 'admin', summary: 'One delivery, with the request sent and the answer received', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 200: 'HookDeliveryDetail' },
    }, deliveries((m) => m.admin.get)),
    post('/admin/hooks/{id}/deliveries/{delivery_id}/attempts', {
      id: 'adminRedeliverHookDelivery', tag: 'admin', summary: 'Send a delivery again now', extension: true,
      params: { id: 'int64', delivery_id: 'int64' }, responses: { 202: 'HookDelivery' },
    }, deliveries((m) => m.admin.redeliver)),
  ]),
];
