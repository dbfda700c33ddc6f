import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, byId, byIndex, repoParticipants, repoReaders, repoSignedReaders } from './route-chains';
import * as pulls from './pulls';

// Pull requests and their reviews.

export const pullRoutes: RouteGroup[] = [
  group({ name: 'pull readers', prefix: R, guards: repoReaders() }, [
    get('/pulls', ['repository', 'repoListPullRequests', 'List a repo\'s pull requests'], pulls.list),
    get('/pulls/pinned', ['repository', 'repoListPinnedPullRequests', 'List a repo\'s pinned pull requests'], pulls.pinned),
    get('/pulls/{index}.{diffType}', ['repository', 'repoDownloadPullDiffOrPatch', 'Get a pull request diff or patch'], pulls.rawDiff),
    get('/commits/{sha}/pull', ['repository', 'repoGetCommitPullRequest', 'Get the merged pull request of the commit'], pulls.ofMergeCommit),
  ]),
  group({ name: 'pull participants', prefix: R, guards: repoParticipants() }, [
    post('/pulls', ['repository', 'repoCreatePullRequest', 'Create a pull request'], pulls.create),
  ]),
  group({ name: 'pull readers, by number', prefix: R, guards: byIndex(repoReaders()) }, [
    get('/pulls/{index}', ['repository', 'repoGetPullRequest', 'Get a pull request'], pulls.get),
    get('/pulls/{index}/commits', ['repository', 'repoGetPullRequestCommits', 'Get commits for a pull request'], pulls.commits),
    get('/pulls/{index}/files', ['repository', 'repoGetPullRequestFiles', 'Get changed files for a pull request'], pulls.files),
    get('/pulls/{index}/merge', ['repository', 'repoPullRequestIsMerged', 'Check if a pull request has been merged'], pulls.isMerged),
    get('/pulls/{index}/reviews', ['repository', 'repoListPullReviews', 'List all reviews for a pull request'], pulls.listReviews),
  ]),
  group({ name: 'pull participants, by number', prefix: R, guards: byIndex(repoParticipants()) }, [
    patch('/pulls/{index}', ['repository', 'repoEditPullRequest', 'Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.'], pulls.edit),
    post('/pulls/{index}/merge', ['repository', 'repoMergePullRequest', 'Merge a pull request'], pulls.merge),
    del('/pulls/{index}/merge', ['repository', 'repoCancelScheduledAutoMerge', 'Cancel the scheduled auto merge for the given pull request'], pulls.cancelMerge),
    post('/pulls/{index}/update', ['repository', 'repoUpdatePullRequest', 'Merge PR\'s baseBranch into headBranch'], pulls.update),
    post('/pulls/{index}/reviews', ['repository', 'repoCreatePullReview', 'Create a review to an pull request'], pulls.createReview),
    post('/pulls/{index}/requested_reviewers', ['repository', 'repoCreatePullReviewRequests', 'create review requests for a pull request'], pulls.requestReviewers),
    del('/pulls/{index}/requested_reviewers', ['repository', 'repoDeletePullReviewRequests', 'cancel review requests for a pull request'], pulls.cancelReviewers),
  ]),
  group({ name: 'pull readers, by number, by id', prefix: R, guards: byId(byIndex(repoReaders())) }, [
    get('/pulls/{index}/reviews/{id}', ['repository', 'repoGetPullReview', 'Get a specific review for a pull request'], pulls.getReview),
    get('/pulls/{index}/reviews/{id}/comments', ['repository', 'repoGetPullReviewComments', 'Get a specific review for a pull request'], pulls.reviewComments),
  ]),
  group({ name: 'pull participants, by number, by id', prefix: R, guards: byId(byIndex(repoParticipants())) }, [
    post('/pulls/{index}/reviews/{id}', ['repository', 'repoSubmitPullReview', 'Submit a pending review to an pull request'], pulls.submitReview),
    del('/pulls/{index}/reviews/{id}', ['repository', 'repoDeletePullReview', 'Delete a specific review from a pull request'], pulls.deleteReview),
    post('/pulls/{index}/reviews/{id}/dismissals', ['repository', 'repoDismissPullReview', 'Dismiss a review for a pull request'], pulls.dismissReview(true)),
    post('/pulls/{index}/reviews/{id}/undismissals', ['repository', 'repoUnDismissPullReview', 'Cancel to dismiss a review for a pull request'], pulls.dismissReview(false)),
  ]),
  group({ name: 'repository readers, signed in', prefix: R, guards: repoSignedReaders() }, [
    get('/reviewers', ['repository', 'repoGetReviewers', 'Return all users that can be requested to review in this repo'], pulls.reviewers),
  ]),
  // After the numbered routes: `/pulls/7/files` names pull request 7, not a base branch `7`.
  group({ name: 'pull readers, by branch names', prefix: R, guards: repoReaders() }, [
    get('/pulls/{base}/{head}', ['repository', 'repoGetPullRequestByBaseHead', 'Get a pull request by base and head'], pulls.getByBranches),
  ]),
];
