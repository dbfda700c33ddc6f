import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, byId, byIndex, repoParticipants, repoReaders, repoSignedReaders } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const pulls = lazyModule(() => import('./pulls'));

// Pull requests and their reviews.

export const pullRoutes: RouteGroup[] = [
  group({ name: 'pull readers', prefix: R, guards: repoReaders() }, [
    get('/pulls', {
      id: 'repoListPullRequests', tag: 'repository', summary: 'A repository\'s pull requests, filtered and sorted',
      query: [q.str('base_branch'), q.str('state', { enum: ['open', 'closed', 'all'], default: 'open' }), q.str('sort', { enum: ['oldest', 'recentupdate', 'recentclose', 'leastupdate', 'mostcomment', 'leastcomment', 'priority'] }), q.int('milestone', { format: 'int64' }), q.list('labels', { items: { type: 'integer', format: 'int64' } }), q.str('poster'), q.int('page', { default: 1, minimum: 1 }), q.int('limit', { minimum: 0 })],
      responses: { 200: ['PullRequest'] },
    }, pulls.list),
    get('/pulls/pinned', {
      id: 'repoListPinnedPullRequests', tag: 'repository', summary: 'Pull requests pinned to the top of the repository\'s list',
      responses: { 200: ['PullRequest'] },
    }, pulls.pinned),
    get('/pulls/{index}.{diffType}', {
      id: 'repoDownloadPullDiffOrPatch', tag: 'repository', summary: 'A pull request as a plain diff or as mail-style patches',
      params: { index: 'int64', diffType: ['diff', 'patch'] }, query: [q.bool('binary')], responses: { 200: { type: 'string' } },
      produces: ['text/plain'],
    }, pulls.rawDiff),
    get('/commits/{sha}/pull', {
      id: 'repoGetCommitPullRequest', tag: 'repository', summary: 'The pull request that merged a commit', responses: { 200: 'PullRequest' },
    }, pulls.ofMergeCommit),
  ]),
  group({ name: 'pull participants', prefix: R, guards: repoParticipants() }, [
    post('/pulls', {
      id: 'repoCreatePullRequest', tag: 'repository', summary: 'Open a pull request from a head branch into a base branch',
      body: pulls.createSchema, responses: { 201: 'PullRequest' },
    }, pulls.create),
  ]),
  group({ name: 'pull readers, by number', prefix: R, guards: byIndex(repoReaders()) }, [
    get('/pulls/{index}', {
      id: 'repoGetPullRequest', tag: 'repository', summary: 'One pull request by number', params: { index: 'int64' },
      responses: { 200: 'PullRequest' },
    }, pulls.get),
    get('/pulls/{index}/commits', {
      id: 'repoGetPullRequestCommits', tag: 'repository', summary: 'Commits a pull request brings in', params: { index: 'int64' },
      query: [q.int('page'), q.int('limit'), q.bool('verification'), q.bool('files')], responses: { 200: ['Commit'] },
    }, pulls.commits),
    get('/pulls/{index}/files', {
      id: 'repoGetPullRequestFiles', tag: 'repository', summary: 'Files a pull request changes', params: { index: 'int64' },
      query: [q.str('skip-to'), q.str('whitespace', { enum: ['ignore-all', 'ignore-change', 'ignore-eol', 'show-all'] }), ...paging],
      responses: { 200: ['ChangedFile'] },
    }, pulls.files),
    get('/pulls/{index}/merge', {
      id: 'repoPullRequestIsMerged', tag: 'repository', summary: 'Whether a pull request is merged (204 or 404)', params: { index: 'int64' },
      responses: { 204: null },
    }, pulls.isMerged),
    get('/pulls/{index}/reviews', {
      id: 'repoListPullReviews', tag: 'repository', summary: 'Reviews of a pull request', params: { index: 'int64' }, query: paging,
      responses: { 200: ['PullReview'] },
    }, pulls.listReviews),
  ]),
  group({ name: 'pull participants, by number', prefix: R, guards: byIndex(repoParticipants()) }, [
    patch('/pulls/{index}', {
      id: 'repoEditPullRequest', tag: 'repository', summary: 'Change a pull request: title, body, base, state, reviewers, deadline (date only)',
      params: { index: 'int64' }, body: pulls.editSchema, responses: { 201: 'PullRequest' },
    }, pulls.edit),
    post('/pulls/{index}/merge', {
      id: 'repoMergePullRequest', tag: 'repository', summary: 'Merge a pull request now, or when its checks pass', params: { index: 'int64' },
      body: pulls.mergeSchema, responses: { 200: null },
    }, pulls.merge),
    del('/pulls/{index}/merge', {
      id: 'repoCancelScheduledAutoMerge', tag: 'repository', summary: 'Cancel a merge waiting for checks to pass', params: { index: 'int64' },
      responses: { 204: null },
    }, pulls.cancelMerge),
    post('/pulls/{index}/update', {
      id: 'repoUpdatePullRequest', tag: 'repository', summary: 'Bring the base branch\'s new commits into the head branch (merge or rebase)',
      params: { index: 'int64' }, query: [q.str('style', { enum: ['merge', 'rebase'] })], responses: { 200: null },
    }, pulls.update),
    post('/pulls/{index}/reviews', {
      id: 'repoCreatePullReview', tag: 'repository', summary: 'Review a pull request, or start a pending review', params: { index: 'int64' },
      body: { of: pulls.reviewSchema, required: true }, responses: { 200: 'PullReview' },
    }, pulls.createReview),
    post('/pulls/{index}/requested_reviewers', {
      id: 'repoCreatePullReviewRequests', tag: 'repository', summary: 'Ask users or teams to review a pull request', params: { index: 'int64' },
      body: { of: pulls.requestSchema, required: true }, responses: { 201: ['PullReview'] },
    }, pulls.requestReviewers),
    del('/pulls/{index}/requested_reviewers', {
      id: 'repoDeletePullReviewRequests', tag: 'repository', summary: 'Withdraw review requests', params: { index: 'int64' },
      body: { of: pulls.requestSchema, required: true }, responses: { 204: null },
    }, pulls.cancelReviewers),
  ]),
  group({ name: 'pull readers, by number, by id', prefix: R, guards: byId(byIndex(repoReaders())) }, [
    get('/pulls/{index}/reviews/{id}', {
      id: 'repoGetPullReview', tag: 'repository', summary: 'One review of a pull request', params: { index: 'int64', id: 'int64' },
      responses: { 200: 'PullReview' },
    }, pulls.getReview),
    get('/pulls/{index}/reviews/{id}/comments', {
      id: 'repoGetPullReviewComments', tag: 'repository', summary: 'Line comments of one review', params: { index: 'int64', id: 'int64' },
      responses: { 200: ['PullReviewComment'] },
    }, pulls.reviewComments),
  ]),
  group({ name: 'pull participants, by number, by id', prefix: R, guards: byId(byIndex(repoParticipants())) }, [
    post('/pulls/{index}/reviews/{id}', {
      id: 'repoSubmitPullReview', tag: 'repository', summary: 'Submit a pending review as approval, comment or change request',
      params: { index: 'int64', id: 'int64' }, body: { of: pulls.submitSchema, required: true }, responses: { 200: 'PullReview' },
    }, pulls.submitReview),
    del('/pulls/{index}/reviews/{id}', {
      id: 'repoDeletePullReview', tag: 'repository', summary: 'Delete a review (a pending one, or as an admin)',
      params: { index: 'int64', id: 'int64' }, responses: { 204: null },
    }, pulls.deleteReview),
    post('/pulls/{index}/reviews/{id}/dismissals', {
      id: 'repoDismissPullReview', tag: 'repository', summary: 'Set a review aside so it no longer counts',
      params: { index: 'int64', id: 'int64' }, body: { of: pulls.dismissSchema, required: true }, responses: { 200: 'PullReview' },
    }, pulls((m) => m.dismissReview(true))),
    post('/pulls/{index}/reviews/{id}/undismissals', {
      id: 'repoUnDismissPullReview', tag: 'repository', summary: 'Make a dismissed review count again', params: { index: 'int64', id: 'int64' },
      responses: { 200: 'PullReview' },
    }, pulls((m) => m.dismissReview(false))),
  ]),
  group({ name: 'repository readers, signed in', prefix: R, guards: repoSignedReaders() }, [
    get('/reviewers', {
      id: 'repoGetReviewers', tag: 'repository', summary: 'Users who may be asked to review pull requests here', responses: { 200: ['User'] },
    }, pulls.reviewers),
  ]),
  // After the numbered routes: `/pulls/7/files` names pull request 7, not a base branch `7`.
  group({ name: 'pull readers, by branch names', prefix: R, guards: repoReaders() }, [
    get('/pulls/{base}/{head}', {
      id: 'repoGetPullRequestByBaseHead', tag: 'repository', summary: 'The open pull request from one branch into another',
      responses: { 200: 'PullRequest' },
    }, pulls.getByBranches),
  ]),
];
