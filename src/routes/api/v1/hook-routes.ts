import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, byId, currentUser, orgOwners, repoAdmins, siteAdmins, type Guards } from './route-chains';
import * as deliveries from './hook-deliveries';
import * as hooks from './hooks';

// Webhooks at every level (repository, organization, user, instance), their deliveries, and git hooks.

const gitHookAdmins: Guards = [...repoAdmins(), hooks.reqGitHook];

export const hookRoutes: RouteGroup[] = [
  group({ name: 'repository admins', prefix: R, guards: repoAdmins() }, [
    get('/hooks', ['repository', 'repoListHooks', 'List the hooks in a repository'], hooks.repo.list),
    post('/hooks', ['repository', 'repoCreateHook', 'Create a hook'], hooks.repo.create),
  ]),
  group({ name: 'git hook admins', prefix: R, guards: gitHookAdmins }, [
    get('/hooks/git', ['repository', 'repoListGitHooks', 'List the Git hooks in a repository'], hooks.listGit),
    get('/hooks/git/{id}', ['repository', 'repoGetGitHook', 'Get a Git hook'], hooks.getGit),
    patch('/hooks/git/{id}', ['repository', 'repoEditGitHook', 'Edit a Git hook in a repository'], hooks.editGit),
    del('/hooks/git/{id}', ['repository', 'repoDeleteGitHook', 'Delete a Git hook in a repository'], hooks.removeGit),
  ]),
  group({ name: 'repository admins, by id', prefix: R, guards: byId(repoAdmins()) }, [
    get('/hooks/{id}', ['repository', 'repoGetHook', 'Get a hook'], hooks.repo.get),
    patch('/hooks/{id}', ['repository', 'repoEditHook', 'Edit a hook in a repository'], hooks.repo.edit),
    del('/hooks/{id}', ['repository', 'repoDeleteHook', 'Delete a hook in a repository'], hooks.repo.remove),
    post('/hooks/{id}/tests', ['repository', 'repoTestHook', 'Test a push webhook'], deliveries.test),
    get('/hooks/{id}/deliveries', ['repository', 'repoListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], deliveries.repo.list),
    get('/hooks/{id}/deliveries/{delivery_id}', ['repository', 'repoGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], deliveries.repo.get),
    post('/hooks/{id}/deliveries/{delivery_id}/attempts', ['repository', 'repoRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], deliveries.repo.redeliver),
  ]),
  group({ name: 'organization owners', guards: orgOwners }, [
    get('/orgs/{org}/hooks', ['organization', 'orgListHooks', 'List an organization\'s webhooks'], hooks.org.list),
    post('/orgs/{org}/hooks', ['organization', 'orgCreateHook', 'Create a hook'], hooks.org.create),
  ]),
  group({ name: 'organization owners, by id', guards: byId(orgOwners) }, [
    get('/orgs/{org}/hooks/{id}', ['organization', 'orgGetHook', 'Get a hook'], hooks.org.get),
    patch('/orgs/{org}/hooks/{id}', ['organization', 'orgEditHook', 'Update a hook'], hooks.org.edit),
    del('/orgs/{org}/hooks/{id}', ['organization', 'orgDeleteHook', 'Delete a hook'], hooks.org.remove),
    get('/orgs/{org}/hooks/{id}/deliveries', ['organization', 'orgListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], deliveries.org.list),
    get('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}', ['organization', 'orgGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], deliveries.org.get),
    post('/orgs/{org}/hooks/{id}/deliveries/{delivery_id}/attempts', ['organization', 'orgRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], deliveries.org.redeliver),
  ]),
  group({ name: 'the caller', guards: currentUser }, [
    get('/user/hooks', ['user', 'userListHooks', 'List the authenticated user\'s webhooks'], hooks.user.list),
    post('/user/hooks', ['user', 'userCreateHook', 'Create a hook'], hooks.user.create),
  ]),
  group({ name: 'the caller, by id', guards: byId(currentUser) }, [
    get('/user/hooks/{id}', ['user', 'userGetHook', 'Get a hook'], hooks.user.get),
    patch('/user/hooks/{id}', ['user', 'userEditHook', 'Update a hook'], hooks.user.edit),
    del('/user/hooks/{id}', ['user', 'userDeleteHook', 'Delete a hook'], hooks.user.remove),
    get('/user/hooks/{id}/deliveries', ['user', 'userListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], deliveries.user.list),
    get('/user/hooks/{id}/deliveries/{delivery_id}', ['user', 'userGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], deliveries.user.get),
    post('/user/hooks/{id}/deliveries/{delivery_id}/attempts', ['user', 'userRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], deliveries.user.redeliver),
  ]),
  group({ name: 'site admins', guards: siteAdmins }, [
    get('/admin/hooks', ['admin', 'adminListHooks', 'List system\'s webhooks'], hooks.admin.list),
    post('/admin/hooks', ['admin', 'adminCreateHook', 'Create a hook'], hooks.admin.create),
  ]),
  group({ name: 'site admins, by id', guards: byId(siteAdmins) }, [
    get('/admin/hooks/{id}', ['admin', 'adminGetHook', 'Get a hook'], hooks.admin.get),
    patch('/admin/hooks/{id}', ['admin', 'adminEditHook', 'Update a hook'], hooks.admin.edit),
    del('/admin/hooks/{id}', ['admin', 'adminDeleteHook', 'Delete a hook'], hooks.admin.remove),
    get('/admin/hooks/{id}/deliveries', ['admin', 'adminListHookDeliveries', 'List a hook\'s deliveries, newest first (hearth extension)', 'extension'], deliveries.admin.list),
    get('/admin/hooks/{id}/deliveries/{delivery_id}', ['admin', 'adminGetHookDelivery', 'Get a delivery with its request and response (hearth extension)', 'extension'], deliveries.admin.get),
    post('/admin/hooks/{id}/deliveries/{delivery_id}/attempts', ['admin', 'adminRedeliverHookDelivery', 'Redeliver a delivery now, 202 (hearth extension)', 'extension'], deliveries.admin.redeliver),
  ]),
];
