import { notArchived } from '../../middleware/repo-guards';
import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { R, byId, byIndex, repoAdmins, repoParticipants, repoReaders, repoSignedReaders } from './route-chains';
import * as attachments from './attachments';
import * as issueDeps from './issue-dependencies';
import * as issuePins from './issue-pins';
import * as issueSubs from './issue-subscriptions';
import * as issueTimeline from './issue-timeline';
import * as issueTimes from './issue-times';
import * as reactions from './reactions';
import { paging, q } from '../../query';

// Around an issue: attachments, reactions, dependencies, locks and pins, deadlines, stopwatches
// and tracked time, subscriptions and the timeline.

export const issueDetailRoutes: RouteGroup[] = [
  group({ name: 'issue readers, by number', prefix: R, guards: byIndex(repoReaders('issue')) }, [
    get('/issues/{index}/assets', {
      id: 'issueListIssueAttachments', tag: 'issue', summary: 'Files attached to an issue', params: { index: 'int64' },
      responses: { 200: ['Attachment'] },
    }, attachments.attachmentsEnabled, attachments.issue.list),
    get('/issues/{index}/assets/{attachment_id}', {
      id: 'issueGetIssueAttachment', tag: 'issue', summary: 'One file attached to an issue', params: { index: 'int64', attachment_id: 'int64' },
      responses: { 200: 'Attachment' },
    }, attachments.attachmentsEnabled, attachments.issue.get),
    get('/issues/{index}/reactions', {
      id: 'issueGetIssueReactions', tag: 'issue', summary: 'Reactions to an issue', params: { index: 'int64' }, query: paging,
      responses: { 200: ['Reaction'] },
    }, reactions.issue.list),
    get('/issues/{index}/dependencies', {
      id: 'issueListIssueDependencies', tag: 'issue', summary: 'Issues this issue depends on (that block it)', query: paging,
      responses: { 200: ['Issue'] },
    }, issueDeps.listDependencies),
    get('/issues/{index}/blocks', {
      id: 'issueListBlocks', tag: 'issue', summary: 'Issues this issue blocks', query: paging, responses: { 200: ['Issue'] },
    }, issueDeps.listBlocks),
    get('/issues/{index}/subscriptions', {
      id: 'issueSubscriptions', tag: 'issue', summary: 'Users who get notified about an issue', params: { index: 'int64' }, query: paging,
      responses: { 200: ['User'] },
    }, issueSubs.list),
    get('/issues/{index}/timeline', {
      id: 'issueGetCommentsAndTimeline', tag: 'issue', summary: 'Comments and events of an issue, oldest first', params: { index: 'int64' },
      query: [q.dateTime('since'), q.int('page'), q.int('limit'), q.dateTime('before')], responses: { 200: ['TimelineComment'] },
    }, issueTimeline.timeline),
  ]),
  group({ name: 'issue participants, by number', prefix: R, guards: byIndex(repoParticipants('issue')) }, [
    post('/issues/{index}/assets', {
      id: 'issueCreateIssueAttachment', tag: 'issue', summary: 'Attach a file to an issue', params: { index: 'int64' }, query: [q.str('name')],
      form: [{ name: 'attachment', type: 'file', required: true }], responses: { 201: 'Attachment' },
    }, attachments.attachmentsEnabled, attachments.issue.create),
    patch('/issues/{index}/assets/{attachment_id}', {
      id: 'issueEditIssueAttachment', tag: 'issue', summary: 'Rename a file attached to an issue',
      params: { index: 'int64', attachment_id: 'int64' }, body: attachments.editSchema, responses: { 201: 'Attachment' },
    }, attachments.attachmentsEnabled, attachments.issue.edit),
    del('/issues/{index}/assets/{attachment_id}', {
      id: 'issueDeleteIssueAttachment', tag: 'issue', summary: 'Remove a file attached to an issue',
      params: { index: 'int64', attachment_id: 'int64' }, responses: { 204: null },
    }, attachments.attachmentsEnabled, attachments.issue.remove),
    post('/issues/{index}/dependencies', {
      id: 'issueCreateIssueDependencies', tag: 'issue', summary: 'Make this issue depend on the issue given in the body',
      body: issueDeps.metaSchema, responses: { 201: 'Issue' },
    }, issueDeps.addDependency),
    del('/issues/{index}/dependencies', {
      id: 'issueRemoveIssueDependencies', tag: 'issue', summary: 'Stop this issue depending on the issue given in the body',
      body: issueDeps.metaSchema, responses: { 200: 'Issue', 201: 'Issue' },
    }, issueDeps.removeDependency),
    post('/issues/{index}/blocks', {
      id: 'issueCreateIssueBlocking', tag: 'issue', summary: 'Make this issue block the issue given in the body', body: issueDeps.metaSchema,
      responses: { 201: 'Issue' },
    }, issueDeps.addBlock),
    del('/issues/{index}/blocks', {
      id: 'issueRemoveIssueBlocking', tag: 'issue', summary: 'Stop this issue blocking the issue given in the body', body: issueDeps.metaSchema,
      responses: { 200: 'Issue', 201: 'Issue' },
    }, issueDeps.removeBlock),
    put('/issues/{index}/lock', {
      id: 'issueLockIssue', tag: 'issue', summary: 'Lock an issue\'s conversation to collaborators', params: { index: 'int64' },
      body: issuePins.lockSchema, responses: { 204: null },
    }, issuePins.lock),
    del('/issues/{index}/lock', {
      id: 'issueUnlockIssue', tag: 'issue', summary: 'Open a locked conversation again', params: { index: 'int64' }, responses: { 204: null },
    }, issuePins.unlock),
    post('/issues/{index}/deadline', {
      id: 'issueEditIssueDeadline', tag: 'issue', summary: 'Set or clear an issue\'s due date (the time of day is dropped)',
      params: { index: 'int64' }, body: issueTimes.deadlineSchema, responses: { 201: 'IssueDeadline' },
    }, issueTimes.deadline),
    post('/issues/{index}/stopwatch/start', {
      id: 'issueStartStopWatch', tag: 'issue', summary: 'Start timing work on an issue', params: { index: 'int64' }, responses: { 201: null },
    }, issueTimes.start),
    post('/issues/{index}/stopwatch/stop', {
      id: 'issueStopStopWatch', tag: 'issue', summary: 'Stop timing and record the time spent', params: { index: 'int64' },
      responses: { 201: null },
    }, issueTimes.stop),
    del('/issues/{index}/stopwatch/delete', {
      id: 'issueDeleteStopWatch', tag: 'issue', summary: 'Drop a running stopwatch without recording it', params: { index: 'int64' },
      responses: { 204: null },
    }, issueTimes.cancel),
    post('/issues/{index}/times', {
      id: 'issueAddTime', tag: 'issue', summary: 'Record time spent on an issue', params: { index: 'int64' }, body: issueTimes.addTimeSchema,
      responses: { 200: 'TrackedTime' },
    }, issueTimes.add),
    del('/issues/{index}/times', {
      id: 'issueResetTime', tag: 'issue', summary: 'Remove all of the caller\'s recorded time on an issue', params: { index: 'int64' },
      responses: { 204: null },
    }, issueTimes.reset),
  ]),
  group({ name: 'issue readers, by id', prefix: R, guards: byId(repoReaders('issue')) }, [
    get('/issues/comments/{id}/assets', {
      id: 'issueListIssueCommentAttachments', tag: 'issue', summary: 'Files attached to a comment', params: { id: 'int64' },
      responses: { 200: ['Attachment'] },
    }, attachments.attachmentsEnabled, attachments.comment.list),
    get('/issues/comments/{id}/assets/{attachment_id}', {
      id: 'issueGetIssueCommentAttachment', tag: 'issue', summary: 'One file attached to a comment',
      params: { id: 'int64', attachment_id: 'int64' }, responses: { 200: 'Attachment' },
    }, attachments.attachmentsEnabled, attachments.comment.get),
    get('/issues/comments/{id}/reactions', {
      id: 'issueGetCommentReactions', tag: 'issue', summary: 'Reactions to a comment', params: { id: 'int64' }, responses: { 200: ['Reaction'] },
    }, reactions.comment.list),
  ]),
  group({ name: 'issue participants, by id', prefix: R, guards: byId(repoParticipants('issue')) }, [
    post('/issues/comments/{id}/assets', {
      id: 'issueCreateIssueCommentAttachment', tag: 'issue', summary: 'Attach a file to a comment', params: { id: 'int64' },
      query: [q.str('name')], form: [{ name: 'attachment', type: 'file', required: true }], responses: { 201: 'Attachment' },
    }, attachments.attachmentsEnabled, attachments.comment.create),
    patch('/issues/comments/{id}/assets/{attachment_id}', {
      id: 'issueEditIssueCommentAttachment', tag: 'issue', summary: 'Rename a file attached to a comment',
      params: { id: 'int64', attachment_id: 'int64' }, body: attachments.editSchema, responses: { 201: 'Attachment' },
    }, attachments.attachmentsEnabled, attachments.comment.edit),
    del('/issues/comments/{id}/assets/{attachment_id}', {
      id: 'issueDeleteIssueCommentAttachment', tag: 'issue', summary: 'Remove a file attached to a comment',
      params: { id: 'int64', attachment_id: 'int64' }, responses: { 204: null },
    }, attachments.attachmentsEnabled, attachments.comment.remove),
  ]),
  group({ name: 'issue readers, signed in, by number', prefix: R, guards: byIndex(repoSignedReaders('issue')) }, [
    post('/issues/{index}/reactions', {
      id: 'issuePostIssueReaction', tag: 'issue', summary: 'React to an issue', params: { index: 'int64' },
      body: { of: reactions.optionSchema, param: 'content' }, responses: { 200: 'Reaction', 201: 'Reaction' },
    }, reactions.issue.add),
    del('/issues/{index}/reactions', {
      id: 'issueDeleteIssueReaction', tag: 'issue', summary: 'Take back a reaction to an issue', params: { index: 'int64' },
      body: { of: reactions.optionSchema, param: 'content' }, responses: { 200: null },
    }, reactions.issue.remove),
    get('/issues/{index}/times', {
      id: 'issueTrackedTimes', tag: 'issue', summary: 'Time recorded on an issue', params: { index: 'int64' },
      query: [q.str('user'), q.dateTime('since'), q.dateTime('before'), ...paging], responses: { 200: ['TrackedTime'] },
    }, issueTimes.issueTimes),
    get('/issues/{index}/subscriptions/check', {
      id: 'issueCheckSubscription', tag: 'issue', summary: 'Whether the caller is notified about an issue', params: { index: 'int64' },
      responses: { 200: 'WatchInfo' },
    }, issueSubs.check),
    put('/issues/{index}/subscriptions/{user}', {
      id: 'issueAddSubscription', tag: 'issue', summary: 'Notify a user about an issue from now on', params: { index: 'int64' },
      responses: { 200: null, 201: null },
    }, issueSubs.subscribe),
    del('/issues/{index}/subscriptions/{user}', {
      id: 'issueDeleteSubscription', tag: 'issue', summary: 'Stop notifying a user about an issue', params: { index: 'int64' },
      responses: { 200: null, 201: null },
    }, issueSubs.unsubscribe),
  ]),
  group({ name: 'issue readers, signed in, by id', prefix: R, guards: byId(repoSignedReaders('issue')) }, [
    post('/issues/comments/{id}/reactions', {
      id: 'issuePostCommentReaction', tag: 'issue', summary: 'React to a comment', params: { id: 'int64' },
      body: { of: reactions.optionSchema, param: 'content' }, responses: { 200: 'Reaction', 201: 'Reaction' },
    }, reactions.comment.add),
    del('/issues/comments/{id}/reactions', {
      id: 'issueDeleteCommentReaction', tag: 'issue', summary: 'Take back a reaction to a comment', params: { id: 'int64' },
      body: { of: reactions.optionSchema, param: 'content' }, responses: { 200: null },
    }, reactions.comment.remove),
  ]),
  group({ name: 'repository admins (issue scope), by number', prefix: R, guards: byIndex(repoAdmins('issue')) }, [
    post('/issues/{index}/pin', {
      id: 'pinIssue', tag: 'issue', summary: 'Pin an issue or pull request to the top of its list', params: { index: 'int64' },
      responses: { 204: null },
    }, notArchived, issuePins.pin),
    del('/issues/{index}/pin', {
      id: 'unpinIssue', tag: 'issue', summary: 'Unpin an issue or pull request', params: { index: 'int64' }, responses: { 204: null },
    }, notArchived, issuePins.unpin),
    patch('/issues/{index}/pin/{position}', {
      id: 'moveIssuePin', tag: 'issue', summary: 'Move a pinned issue to another place among the pins',
      params: { index: 'int64', position: 'int64' }, responses: { 204: null },
    }, notArchived, issuePins.move),
  ]),
  group({ name: 'issue participants, by number, by id', prefix: R, guards: byId(byIndex(repoParticipants('issue'))) }, [
    del('/issues/{index}/times/{id}', {
      id: 'issueDeleteTime', tag: 'issue', summary: 'Remove one recorded time entry', params: { index: 'int64', id: 'int64' },
      responses: { 204: null },
    }, issueTimes.remove),
  ]),
  group({ name: 'issue readers, signed in', prefix: R, guards: repoSignedReaders('issue') }, [
    get('/times', {
      id: 'repoTrackedTimes', tag: 'repository', summary: 'Time recorded on all issues of the repository',
      query: [q.str('user'), q.dateTime('since'), q.dateTime('before'), ...paging], responses: { 200: ['TrackedTime'] },
    }, issueTimes.repoTimes),
    get('/times/{user}', {
      id: 'userTrackedTimes', tag: 'repository', summary: 'Time one user recorded in the repository', deprecated: true,
      responses: { 200: ['TrackedTime'] },
    }, issueTimes.userRepoTimes),
  ]),
];
