import type { RequestHandler } from 'express';
import { assignPageRepo, assignWebRepo, notArchived, releasesUnit, repoViewer } from './guards';
import * as releases from './release-manage';
import * as branches from './repo-settings-branches';
import * as collab from './repo-settings-collab';
import * as danger from './repo-settings-danger';
import * as general from './repo-settings-general';
import * as actions from './repo-settings-actions';
import * as hooks from './repo-settings-hooks';
import * as keys from './repo-settings-keys';
import * as mirror from './repo-settings-mirror';
import { repoAdminPage } from './repo-settings-layout';
import { get, group, post, upload, type WebGroup } from './table';
import { hookRoutes } from './webhook-forms';

// The repository settings pages (Gitea's /{owner}/{repo}/settings/*) and a pending transfer's
// answer, in groups named per area: every settings page is for the repository's admins
// (repoAdminPage: 404 on a private repository, 403 on a public one), transfer and delete for
// its owner. They mount with the other `/{owner}/{repo}/...` groups.

const S = '/:owner/:repo/settings';

/**
 * `signedIn`: the table's chain of signed-in pages (index.ts), which the groups start from;
 * `viewerState`: the repository header's watch/star state and pending-transfer banner (repo-social.ts).
 */
export const repoSettingsGroups = (signedIn: readonly RequestHandler[], viewerState: RequestHandler): WebGroup[] => {
  /** Signed in, the repository of the path visible, its settings the visitor's to change. */
  const repoAdmins = [...signedIn, repoViewer, assignPageRepo, repoAdminPage, viewerState];
  // As the API's rows: rules and push mirrors of an archived repository are not changed (423).
  return [
    group('repo-settings', repoAdmins, [
      get(S, general.generalPage),
      post(S, general.saveBasic),
      post(`${S}/units`, general.saveUnits),
      post(`${S}/archive`, danger.archivePost),
      get(`${S}/collaboration`, collab.collaboratorsPage),
      post(`${S}/collaboration`, collab.addPost),
      post(`${S}/collaboration/permission`, collab.permissionPost),
      get(`${S}/collaboration/delete`, collab.removeForm),
      post(`${S}/collaboration/delete`, collab.removePost),
      get(`${S}/branches`, branches.rulesPage),
      get(`${S}/branches/new`, branches.newRulePage),
      post(`${S}/branches/new`, notArchived, branches.createRulePost),
      get(`${S}/branches/edit`, branches.editRulePage),
      post(`${S}/branches/edit`, notArchived, branches.editRulePost),
      get(`${S}/branches/delete`, branches.deleteRulePage),
      post(`${S}/branches/delete`, branches.deleteRulePost),
      post(`${S}/transfer/cancel`, danger.transferCancel),
      get(`${S}/tags`, keys.tagsPage),
      post(`${S}/tags`, notArchived, keys.addTagPost),
      post(`${S}/tags/:id`, notArchived, keys.editTagPost),
      get(`${S}/tags/:id/delete`, keys.deleteTagPage),
      post(`${S}/tags/:id/delete`, keys.deleteTagPost),
      get(`${S}/keys`, keys.keysPage),
      post(`${S}/keys`, keys.addKeyPost),
      get(`${S}/keys/:id/delete`, keys.deleteKeyPage),
      post(`${S}/keys/:id/delete`, keys.deleteKeyPost),
      get(`${S}/actions`, actions.actionsPage),
      post(`${S}/actions/secrets`, actions.secretPost),
      get(`${S}/actions/secrets/delete`, actions.deleteConfirm),
      post(`${S}/actions/secrets/delete`, actions.deletePost),
      post(`${S}/actions/variables`, actions.variablePost),
      post(`${S}/actions/variables/edit`, actions.variableEditPost),
      get(`${S}/actions/variables/delete`, actions.deleteConfirm),
      post(`${S}/actions/variables/delete`, actions.deletePost),
      get(`${S}/mirror`, mirror.mirrorPage),
      post(`${S}/mirror`, mirror.pullPost),
      post(`${S}/mirror/sync`, mirror.pullSyncPost),
      post(`${S}/mirror/push`, notArchived, mirror.pushAddPost),
      post(`${S}/mirror/push/sync`, notArchived, mirror.pushSyncPost),
      get(`${S}/mirror/push/delete`, mirror.pushDeletePage),
      post(`${S}/mirror/push/delete`, notArchived, mirror.pushDeletePost),
      ...hookRoutes(`${S}/hooks`, {
        list: hooks.hooksPage, newForm: hooks.newHookPage, create: hooks.createHookPost, edit: hooks.hookPage, save: hooks.saveHookPost,
        test: hooks.testHookPost, redeliver: hooks.redeliverPost, deletePage: hooks.deleteHookPage, remove: hooks.deleteHookPost,
      }),
    ]),
    group('repo-settings-owner', [...repoAdmins, danger.repoOwnerForm], [
      get(`${S}/transfer`, danger.transferForm),
      post(`${S}/transfer`, danger.transferPost),
      get(`${S}/delete`, danger.deleteForm),
      post(`${S}/delete`, danger.deletePost),
    ]),
    // A release's writers' forms (new, edit with assets, delete).
    group('repo-releases-manage', [...signedIn, repoViewer, assignPageRepo, releasesUnit, releases.releaseWriter, viewerState], [
      get('/:owner/:repo/releases/new', releases.newPage),
      upload('/:owner/:repo/releases/new', releases.RELEASE_UPLOAD, releases.createPost),
      get('/:owner/:repo/releases/edit/*tag', releases.editPage),
      upload('/:owner/:repo/releases/edit/*tag', releases.RELEASE_UPLOAD, releases.editPost),
      get('/:owner/:repo/releases/delete/*tag', releases.deletePage),
      post('/:owner/:repo/releases/delete/*tag', releases.deletePost),
    ]),
    // The recipient of a pending transfer (not yet an admin of it): the service checks who may answer
    // (the page is the answer, so it carries no banner of it).
    group('repo-transfer', [...signedIn, repoViewer, assignWebRepo], [
      get('/:owner/:repo/transfer', danger.transferPendingPage),
      post('/:owner/:repo/transfer/accept', danger.transferAnswer),
      post('/:owner/:repo/transfer/reject', danger.transferAnswer),
    ]),
  ];
};
