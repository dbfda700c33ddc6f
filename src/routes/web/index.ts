import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { AppError, NotFoundError, TooManyRequestsError } from '../../lib/errors';
import { html } from '../../lib/html';
import { countNew } from '../../services/notification/notifications';
import { downloadReleaseAsset } from '../release-download';
import * as account from './account-pages';
import { serveWebAsset } from './assets';
import * as code from './code-pages';
import * as files from './files';
import {
  assignWebRepo as repo, attachmentViewer, codeUnit, issuesOrPulls, issuesUnit, pullsUnit, releasesUnit, repoViewer,
  signedInPage, signedInViewing, viewing,
} from './guards';
import * as issues from './issue-pages';
import { sendPage } from './layout';
import { markdownPreview } from './markdown-preview';
import * as oauth2 from './oauth2-pages';
import * as settingsAccount from './settings-account';
import * as settingsApps from './settings-applications';
import * as settingsLook from './settings-appearance';
import * as settingsKeys from './settings-keys';
import * as settingsProfile from './settings-profile';
import * as owners from './owner-pages';
import { get, group, mountGroups, post, postMultipart, type WebGroup } from './table';

// The web route table: every page and form, in groups named per area, each carrying its guard
// chain once (table.ts adds the site's own before them: the user, and for forms the CSRF
// check). Gitea's web routes are the reference for the paths. Groups mount in this order:
// fixed first segments before `/{owner}` and `/{owner}/{repo}`, which would take them for names.

/** The unread count of the header's notifications link. */
const headerCounts: RequestHandler = async (req, res, next) => {
  if (req.ctx.doer) res.locals.unread = await countNew(req.ctx.db, req.ctx.doer);
  next();
};

const page = [...viewing, headerCounts];
const signedIn = [...signedInViewing, headerCounts];
const repoPage = [...page, repoViewer, repo];

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
    postMultipart('/user/settings/avatar', { file: 'avatar', maxBytes: settingsProfile.avatarMaxBytes }, settingsProfile.saveAvatar),
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
  group('home', [...page, repoViewer], [
    get('/', owners.home),
    get('/explore/repos', owners.exploreRepos),
  ]),
  group('attachments', [...page, attachmentViewer], [get('/attachments/:uuid', files.attachment)]),
  group('owners', [...page, repoViewer], [
    get('/org/:org/teams', owners.teams),
    get('/org/:org/teams/:team', owners.team),
    get('/:owner', owners.profile),
  ]),
  group('repo', repoPage, [
    get('/:owner/:repo', code.home),
    get('/:owner/:repo/issues/:index', issues.issue),
    get('/:owner/:repo/pulls/:index', issues.pull),
    get('/:owner/:repo/releases/download/*tag/:name', downloadReleaseAsset),
  ]),
  group('repo-code', [...repoPage, codeUnit], [
    get('/:owner/:repo/src/*rest', code.src),
    get('/:owner/:repo/raw/*rest', files.rawFile),
    get('/:owner/:repo/media/*rest', files.mediaFile),
    get('/:owner/:repo/archive/*archive', files.archive),
    get('/:owner/:repo/commit/:sha', code.commit),
    get('/:owner/:repo/commits/*rest', code.commits),
    get('/:owner/:repo/branches', code.branches),
    get('/:owner/:repo/tags', code.tags),
    get('/:owner/:repo/compare/*basehead', code.compare),
  ]),
  group('repo-issues', [...repoPage, issuesUnit], [get('/:owner/:repo/issues', issues.issueList)]),
  group('repo-pulls', [...repoPage, pullsUnit], [
    get('/:owner/:repo/pulls', issues.pullList),
    get('/:owner/:repo/pulls/:index/:tab', issues.pullTab),
  ]),
  group('repo-labels', [...repoPage, issuesOrPulls], [
    get('/:owner/:repo/labels', issues.labels),
    get('/:owner/:repo/milestones', issues.milestones),
    get('/:owner/:repo/milestone/:id', issues.milestone),
  ]),
  group('repo-releases', [...repoPage, releasesUnit], [
    get('/:owner/:repo/releases', owners.releases),
    get('/:owner/:repo/releases/tag/*tag', owners.release),
  ]),
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
