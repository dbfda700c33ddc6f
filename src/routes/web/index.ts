import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { AppError, NotFoundError, TooManyRequestsError } from '../../lib/errors';
import { html } from '../../lib/html';
import { countNew } from '../../services/notification/notifications';
import { downloadReleaseAsset } from '../release-download';
import * as account from './account-pages';
import { actionsGroups } from './actions-routes';
import { wikiGroups } from './wiki-routes';
import { packageGroups } from './package-routes';
import { ownerRunnerGroups, repoRunnerGroup } from './runner-routes';
import { serveWebAsset } from './assets';
import * as blame from './blame-page';
import * as branches from './branch-pages';
import * as code from './code-pages';
import * as commits from './commit-pages';
import * as dash from './dashboard-pages';
import * as editor from './editor-pages';
import * as files from './files';
import {
  assignPageRepo, assignWebRepo as repo, attachmentViewer, codeUnit, codeWriter, issuesOrPulls, issuesUnit, notArchived, pullsUnit, releasesUnit, repoViewer,
  signedInPage, signedInViewing, viewing,
} from './guards';
import * as issues from './issue-pages';
import * as issueActions from './issue-actions';
import * as issueSide from './issue-sidebar-actions';
import * as issueList from './issue-list-page';
import * as labelManage from './label-manage';
import * as milestoneManage from './milestone-manage';
import * as notify from './notifications-page';
import { repoSocial, socialPost } from './repo-social';
import { createIssuePost, newIssuePage } from './issue-new-pages';
import { issuePage } from './issue-view-pages';
import { sendPage } from './layout';
import { markdownPreview } from './markdown-preview';
import * as oauth2 from './oauth2-pages';
import * as settingsAccount from './settings-account';
import * as settingsApps from './settings-applications';
import * as settingsLook from './settings-appearance';
import * as settingsKeys from './settings-keys';
import * as settingsProfile from './settings-profile';
import * as owners from './owner-pages';
import * as pullFiles from './pull-files';
import * as pullForms from './pull-forms';
import * as newPull from './pull-new';
import * as pulls from './pull-pages';
import * as reviewForms from './pull-review-forms';
import * as create from './repo-create-pages';
import { repoSettingsGroups } from './repo-settings-routes';
import { get, group, mountGroups, post, upload, type WebGroup } from './table';
import { exploreRoutes, orgAdminGroups } from './org-admin-routes';

// The web route table: every page and form, in groups named per area, each carrying its guard
// chain once (table.ts adds the site's own before them: the user, and for forms the CSRF
// check). Gitea's web routes are the reference for the paths. Groups mount in this order:
// fixed first segments before `/{owner}` and `/{owner}/{repo}`, which would take them for names.

/** The unread count of the header's notifications link. */
const headerCounts: RequestHandler = (req, res, next) => {
  // A browser session read it with the session (session.ts); Basic and token callers ask here.
  // Not async: a page whose count came with its session passes on with no promise to settle.
  if (!req.ctx.doer || res.locals.unread !== undefined) return next();
  return countNew(req.ctx.db, req.ctx.doer).then((n) => {
    res.locals.unread = n;
    next();
  });
};

const page = [...viewing, headerCounts];

/** The forms of the issue page (issue-actions.ts, issue-sidebar-actions.ts). */
const issueFormRoutes = [
  upload('/:owner/:repo/issues/:index/comments', issueActions.attachmentUpload, issueActions.postComment),
  post('/:owner/:repo/issues/:index/title', issueActions.postTitle),
  post('/:owner/:repo/issues/:index/content', issueActions.postBody),
  post('/:owner/:repo/issues/:index/reactions', issueActions.postIssueReaction),
  post('/:owner/:repo/issues/:index/tasks', issueActions.postIssueTask),
  post('/:owner/:repo/issues/:index/watch', issueActions.postWatch),
  post('/:owner/:repo/issues/:index/labels', issueSide.postLabels),
  post('/:owner/:repo/issues/:index/assignees', issueSide.postAssignees),
  post('/:owner/:repo/issues/:index/milestone', issueSide.postMilestone),
  post('/:owner/:repo/issues/:index/deadline', issueSide.postDeadline),
  post('/:owner/:repo/issues/:index/lock', issueSide.postLock),
  post('/:owner/:repo/issues/:index/unlock', issueSide.postUnlock),
  post('/:owner/:repo/issues/:index/pin', issueSide.postPin),
  post('/:owner/:repo/issues/:index/unpin', issueSide.postUnpin),
  post('/:owner/:repo/issues/:index/dependency/add', issueSide.postDependencyAdd),
  post('/:owner/:repo/issues/:index/dependency/delete', issueSide.postDependencyDelete),
  post('/:owner/:repo/comments/:id', issueActions.postCommentEdit),
  get('/:owner/:repo/comments/:id/delete', issueActions.deleteCommentPage),
  post('/:owner/:repo/comments/:id/delete', issueActions.postCommentDelete),
  post('/:owner/:repo/comments/:id/reactions', issueActions.postCommentReaction),
  post('/:owner/:repo/comments/:id/tasks', issueActions.postCommentTask),
];
const signedIn = [...signedInViewing, headerCounts];
const repoPage = [...page, repoViewer, assignPageRepo, repoSocial];
/** Signed-in repository pages and forms: the header's watch/star state and a pending transfer's banner on GET. */
const signedInRepo = [...signedIn, repoViewer, assignPageRepo, repoSocial];
/** Downloads: the repository and its reader, without a page's header counts and watch/star state. */
const repoDownload = [...viewing, repoViewer, repo];

export const webGroups: WebGroup[] = [
  group('assets', [], [get('/assets/:file', serveWebAsset)], { bare: true }),
  // Before sign-in: reachable under require_signin_view and by a user who must change a password.
  group('sign-in', [headerCounts], [
    get('/user/login', account.loginForm),
    post('/user/login', account.login),
    get('/user/sign_up', account.signUpForm),
    post('/user/sign_up', account.signUp),
    get('/user/change_password', account.oldPasswordUrl),
  ]),
  // The account itself: open to a user who must change their password (that is where they go).
  group('account', [signedInPage, headerCounts], [
    post('/user/logout', account.logout),
    get('/user/settings/change_password', account.passwordForm),
    post('/user/settings/change_password', account.changePassword),
  ]),
  group('tools', signedIn, [post('/-/markdown', markdownPreview)]),
  // The account settings (Gitea's /user/settings/*): the signed-in user's own, through the API's services.
  group('settings', signedIn, [
    get('/user/settings', settingsProfile.profileForm),
    post('/user/settings', settingsProfile.saveProfile),
    upload('/user/settings/avatar', settingsProfile.AVATAR, settingsProfile.saveAvatar),
    get('/user/settings/avatar/delete', settingsProfile.confirmDeleteAvatar),
    post('/user/settings/avatar/delete', settingsProfile.removeAvatar),
    get('/user/settings/account', settingsAccount.accountForm),
    post('/user/settings/account', settingsAccount.changePassword),
    post('/user/settings/account/email', settingsAccount.addEmail),
    post('/user/settings/account/email/primary', settingsAccount.primaryEmail),
    get('/user/settings/account/email/delete', settingsAccount.confirmDeleteEmail),
    post('/user/settings/account/email/delete', settingsAccount.deleteEmail),
    get('/user/settings/account/delete', settingsAccount.confirmDeleteAccount),
    post('/user/settings/account/delete', settingsAccount.deleteAccount),
    get('/user/settings/appearance', settingsLook.appearanceForm),
    post('/user/settings/appearance', settingsLook.saveAppearance),
    get('/user/settings/sessions', settingsLook.sessionsPage),
    post('/user/settings/sessions/revoke', settingsLook.endSession),
    post('/user/settings/sessions/revoke_others', settingsLook.endOtherSessions),
    get('/user/settings/keys', settingsKeys.keysPage),
    post('/user/settings/keys', settingsKeys.addKey),
    get('/user/settings/keys/delete', settingsKeys.confirmDeleteKey),
    post('/user/settings/keys/delete', settingsKeys.deleteKey),
    get('/user/settings/applications', settingsApps.applicationsPage),
    post('/user/settings/applications/tokens', settingsApps.addToken),
    get('/user/settings/applications/tokens/:id/delete', settingsApps.confirmDeleteToken),
    post('/user/settings/applications/tokens/:id/delete', settingsApps.removeToken),
    post('/user/settings/applications/oauth2', settingsApps.addApp),
    get('/user/settings/applications/oauth2/:id', settingsApps.editAppPage),
    post('/user/settings/applications/oauth2/:id', settingsApps.saveApp),
    get('/user/settings/applications/oauth2/:id/regenerate_secret', settingsApps.confirmRegenerate),
    post('/user/settings/applications/oauth2/:id/regenerate_secret', settingsApps.regenerate),
    get('/user/settings/applications/oauth2/:id/delete', settingsApps.confirmDeleteApp),
    post('/user/settings/applications/oauth2/:id/delete', settingsApps.removeApp),
    get('/user/settings/applications/grants/:id/revoke', settingsApps.confirmRevokeGrant),
    post('/user/settings/applications/grants/:id/revoke', settingsApps.removeGrant),
  ]),
  // The OAuth2 provider's consent (its JSON endpoints are routes/oauth2): signed-out browsers sign in and come back.
  group('oauth2', signedIn, [
    get('/login/oauth/authorize', oauth2.authorize),
    post('/login/oauth/grant', oauth2.grant),
  ]),
  // Before `/{owner}`, which would take them for user names.
  group('dashboard', [...signedIn, repoViewer], [get('/issues', dash.issues), get('/pulls', dash.pulls)]),
  group('notifications', signedIn, [
    get('/notifications', notify.notificationsPage),
    post('/notifications/threads/:id', notify.threadPost),
    post('/notifications/read', notify.readAllPost),
  ]),
  // Before `/{owner}/{repo}`, which would take `repo/create` for a repository.
  group('repo-create', signedIn, [get('/repo/create', create.createForm), post('/repo/create', create.createPost)]),
  group('home', [...page, repoViewer], [
    get('/', dash.home),
    get('/explore/repos', owners.exploreRepos),
    ...exploreRoutes,
  ]),
  // Before the organization settings, whose `/org/{org}/settings/actions/{kind}` would take `runners`.
  ...ownerRunnerGroups(signedIn),
  ...orgAdminGroups(signedIn),
  group('attachments', [...page, attachmentViewer], [get('/attachments/:uuid', files.attachment)]),
  ...packageGroups([...page, repoViewer], signedIn),
  group('owners', [...page, repoViewer], [
    get('/org/:org/teams', owners.teams),
    get('/org/:org/teams/:team', owners.team),
    get('/:owner', owners.profile),
  ]),
  // An issue's forms, and a pull request's conversation forms (one service each, either kind).
  group('repo-issue-forms', [...repoPage, signedInPage, notArchived, issuesOrPulls], issueFormRoutes),
  group('repo-social', [...repoPage, signedInPage], [post('/:owner/:repo/action/:action', socialPost)]),
  group('repo-issue-new', [...repoPage, issuesUnit, signedInPage, notArchived], [
    get('/:owner/:repo/issues/new', newIssuePage),
    upload('/:owner/:repo/issues/new', issueActions.attachmentUpload, createIssuePost),
  ]),
  group('repo', repoPage, [
    get('/:owner/:repo', code.home),
    get('/:owner/:repo/issues/:index', issuePage),
    get('/:owner/:repo/pulls/:index', pulls.conversation),
  ]),
  group('repo-release-download', repoDownload, [get('/:owner/:repo/releases/download/*tag/:name', downloadReleaseAsset)]),
  group('repo-code-download', [...repoDownload, codeUnit], [
    get('/:owner/:repo/raw/*rest', files.rawFile),
    get('/:owner/:repo/media/*rest', files.mediaFile),
    get('/:owner/:repo/archive/*archive', files.archive),
  ]),
  group('repo-code', [...repoPage, codeUnit], [
    get('/:owner/:repo/src/*rest', code.src),
    get('/:owner/:repo/blame/*rest', blame.blame),
    get('/:owner/:repo/commit/:sha', commits.commit),
    get('/:owner/:repo/commits/*rest', commits.commits),
    get('/:owner/:repo/branches', branches.branches),
    get('/:owner/:repo/tags', branches.tags),
    get('/:owner/:repo/compare/*basehead', commits.compare),
    get('/:owner/:repo/compare', newPull.pick),
  ]),
  group('repo-fork', [...signedInRepo, codeUnit], [
    get('/:owner/:repo/fork', create.forkForm),
    post('/:owner/:repo/fork', create.forkPost),
  ]),
  // Changing files and branches: signed in, writing the code of a live (not archived) repository.
  group('repo-code-write', [...signedInRepo, codeUnit, codeWriter], [
    get('/:owner/:repo/branches/delete', branches.deleteForm),
    post('/:owner/:repo/branches/delete', branches.deletePost),
    post('/:owner/:repo/branches/restore', branches.restorePost),
    get('/:owner/:repo/_new/*rest', editor.newForm),
    post('/:owner/:repo/_new/*rest', editor.newPost),
    get('/:owner/:repo/_edit/*rest', editor.editForm),
    post('/:owner/:repo/_edit/*rest', editor.editPost),
    get('/:owner/:repo/_delete/*rest', editor.deleteForm),
    post('/:owner/:repo/_delete/*rest', editor.deletePost),
    get('/:owner/:repo/_upload/*rest', editor.uploadForm),
    upload('/:owner/:repo/_upload/*rest', editor.UPLOAD, editor.uploadPost),
  ]),
  group('repo-issues', [...repoPage, issuesUnit], [get('/:owner/:repo/issues', issueList.issuesPage)]),
  group('repo-issues-bulk', [...repoPage, issuesUnit, signedInPage, notArchived], [post('/:owner/:repo/issues/bulk', issueList.bulkPost)]),
  group('repo-pulls', [...repoPage, pullsUnit], [
    get('/:owner/:repo/pulls', issues.pullList),
    get('/:owner/:repo/pulls/:index/:tab', pullFiles.tab),
  ]),
  // A pull request's forms: its conversation's (merge, update, state, draft, review requests).
  group('repo-pull-forms', [...signedInRepo, pullsUnit, notArchived], [
    post('/:owner/:repo/compare/*basehead', newPull.create),
    post('/:owner/:repo/pulls/:index/merge', pullForms.merge),
    post('/:owner/:repo/pulls/:index/merge/cancel', pullForms.cancelMerge),
    post('/:owner/:repo/pulls/:index/update', pullForms.update),
    post('/:owner/:repo/pulls/:index/state', pullForms.state),
    post('/:owner/:repo/pulls/:index/draft', pullForms.draft),
    post('/:owner/:repo/pulls/:index/reviewers', pullForms.reviewers),
    post('/:owner/:repo/pulls/:index/files/comment', reviewForms.comment),
    post('/:owner/:repo/pulls/:index/files/comment/edit', reviewForms.editComment),
    post('/:owner/:repo/pulls/:index/files/comment/delete', reviewForms.deleteComment),
    post('/:owner/:repo/pulls/:index/files/reply', reviewForms.reply),
    post('/:owner/:repo/pulls/:index/files/resolve', reviewForms.resolve),
    post('/:owner/:repo/pulls/:index/files/suggestion', reviewForms.suggestion),
    post('/:owner/:repo/pulls/:index/files/review', reviewForms.review),
    get('/:owner/:repo/pulls/:index/files/review/discard', reviewForms.discardConfirm),
    post('/:owner/:repo/pulls/:index/files/review/discard', reviewForms.discard),
  ]),
  // The visitor's own marks on a pull request's files: also on an archived repository.
  group('repo-pull-marks', [...signedIn, repoViewer, repo, pullsUnit], [
    post('/:owner/:repo/pulls/:index/files/viewed', reviewForms.viewed),
    post('/:owner/:repo/pulls/:index/files/style', reviewForms.style),
  ]),
  // Writers' label and milestone forms (the services check the writer rule).
  group('repo-labels-manage', [...repoPage, issuesOrPulls, signedInPage, notArchived], [
    post('/:owner/:repo/labels/new', labelManage.labelCreate),
    post('/:owner/:repo/labels/initialize', labelManage.labelSet),
    post('/:owner/:repo/labels/:id/edit', labelManage.labelEdit),
    get('/:owner/:repo/labels/:id/delete', labelManage.labelDeletePage),
    post('/:owner/:repo/labels/:id/delete', labelManage.labelDelete),
    get('/:owner/:repo/milestones/new', milestoneManage.milestoneNewPage),
    post('/:owner/:repo/milestones/new', milestoneManage.milestoneCreate),
    get('/:owner/:repo/milestones/:id/edit', milestoneManage.milestoneEditPage),
    post('/:owner/:repo/milestones/:id/edit', milestoneManage.milestoneEdit),
    post('/:owner/:repo/milestones/:id/state', milestoneManage.milestoneState),
    get('/:owner/:repo/milestones/:id/delete', milestoneManage.milestoneDeletePage),
    post('/:owner/:repo/milestones/:id/delete', milestoneManage.milestoneDelete),
  ]),
  group('repo-labels', [...repoPage, issuesOrPulls], [
    get('/:owner/:repo/labels', labelManage.labelsManagePage),
    get('/:owner/:repo/milestones', milestoneManage.milestonesManagePage),
    get('/:owner/:repo/milestone/:id', issues.milestone),
  ]),
  ...repoSettingsGroups(signedIn, repoSocial),
  group('repo-releases', [...repoPage, releasesUnit], [
    get('/:owner/:repo/releases', owners.releases),
    get('/:owner/:repo/releases/tag/*tag', owners.release),
  ]),
  ...actionsGroups(repoPage, signedInRepo),
  ...wikiGroups(repoPage, signedInRepo),
  repoRunnerGroup(signedInRepo),
];

/** Every missing thing answers this one 404 page, whatever hid it (absent or not visible). */
const NOT_FOUND = 'The page you are looking for does not exist or you may not see it.';

/** Errors of pages are pages: the status, a title and the message, never a stack. */
const pageErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const status = err instanceof AppError ? err.status : (err as { status?: number }).status ?? 500;
  if (status >= 500 || !(status >= 400)) {
    req.ctx.log.error({ err, requestId: req.ctx.requestId, path: req.path }, 'internal error');
    sendPage(req, res, { status: 500, title: 'Internal Server Error', body: html`<h1>Internal Server Error</h1>\n<p>Request id ${req.ctx.requestId}</p>` });
    return;
  }
  if (err instanceof TooManyRequestsError) res.setHeader('Retry-After', String(err.retryAfter));
  if (status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="Hearth"');
  const title = status === 404 ? 'Page Not Found' : status === 403 ? 'Forbidden' : `Error ${status}`;
  const message = status === 404 ? NOT_FOUND : (err as Error).message;
  sendPage(req, res, { status, title, body: html`<div class="box"><h1>${title}</h1>\n<p>${message}</p></div>` });
};

export function webRouter(): Router {
  const router = express.Router();
  mountGroups(router, webGroups);
  router.use(() => { throw new NotFoundError(); });
  router.use(pageErrors);
  return router;
}
