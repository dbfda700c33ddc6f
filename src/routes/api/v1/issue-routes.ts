import { notArchived } from '../../middleware/repo-guards';
import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { R, byId, byIndex, issueScope, repoAdmins, repoParticipants, repoReaders, repoSignedReaders, repoWriters } from './route-chains';
import * as attachments from './attachments';
import * as issueComments from './comments';
import * as issueDeps from './issue-dependencies';
import * as issuePins from './issue-pins';
import * as issueSubs from './issue-subscriptions';
import * as issueTemplates from './issue-templates';
import * as issueTimeline from './issue-timeline';
import * as issueTimes from './issue-times';
import * as issues from './issues';
import * as labels from './labels';
import * as milestones from './milestones';
import * as reactions from './reactions';

// Issues: comments, labels, milestones, dependencies, pins, tracked time, subscriptions, attachments and reactions.

export const issueRoutes: RouteGroup[] = [
  group({ name: 'repository readers', prefix: R, guards: repoReaders() }, [
    get('/issue_templates', ['repository', 'repoGetIssueTemplates', 'Get available issue templates for a repository'], issueTemplates.templates),
    get('/issue_config', ['repository', 'repoGetIssueConfig', 'Returns the issue config for a repo'], issueTemplates.config),
    get('/issue_config/validate', ['repository', 'repoValidateIssueConfig', 'Returns the validation information for a issue config'], issueTemplates.validateConfig),
    get('/new_pin_allowed', ['repository', 'repoNewPinAllowed', 'Returns if new Issue Pins are allowed'], issuePins.allowed),
  ]),
  group({ name: 'issue readers, by number', prefix: R, guards: byIndex(repoReaders('issue')) }, [
    get('/issues/{index}/assets', ['issue', 'issueListIssueAttachments', 'List issue\'s attachments'], attachments.attachmentsEnabled, attachments.issue.list),
    get('/issues/{index}/assets/{attachment_id}', ['issue', 'issueGetIssueAttachment', 'Get an issue attachment'], attachments.attachmentsEnabled, attachments.issue.get),
    get('/issues/{index}/reactions', ['issue', 'issueGetIssueReactions', 'Get a list reactions of an issue'], reactions.issue.list),
    get('/issues/{index}', ['issue', 'issueGetIssue', 'Get an issue'], issues.get),
    get('/issues/{index}/comments', ['issue', 'issueGetComments', 'List all comments on an issue'], issueComments.list),
    get('/issues/{index}/labels', ['issue', 'issueGetLabels', 'Get an issue\'s labels'], labels.issueList),
    get('/issues/{index}/dependencies', ['issue', 'issueListIssueDependencies', 'List an issue\'s dependencies, i.e all issues that block this issue.'], issueDeps.listDependencies),
    get('/issues/{index}/blocks', ['issue', 'issueListBlocks', 'List issues that are blocked by this issue'], issueDeps.listBlocks),
    get('/issues/{index}/subscriptions', ['issue', 'issueSubscriptions', 'Get users who subscribed on an issue.'], issueSubs.list),
    get('/issues/{index}/timeline', ['issue', 'issueGetCommentsAndTimeline', 'List all comments and events on an issue'], issueTimeline.timeline),
  ]),
  group({ name: 'issue participants, by number', prefix: R, guards: byIndex(repoParticipants('issue')) }, [
    post('/issues/{index}/assets', ['issue', 'issueCreateIssueAttachment', 'Create an issue attachment'], attachments.attachmentsEnabled, attachments.issue.create),
    patch('/issues/{index}/assets/{attachment_id}', ['issue', 'issueEditIssueAttachment', 'Edit an issue attachment'], attachments.attachmentsEnabled, attachments.issue.edit),
    del('/issues/{index}/assets/{attachment_id}', ['issue', 'issueDeleteIssueAttachment', 'Delete an issue attachment'], attachments.attachmentsEnabled, attachments.issue.remove),
    patch('/issues/{index}', ['issue', 'issueEditIssue', 'Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.'], issues.edit),
    post('/issues/{index}/comments', ['issue', 'issueCreateComment', 'Add a comment to an issue'], issueComments.create),
    post('/issues/{index}/labels', ['issue', 'issueAddLabel', 'Add a label to an issue'], labels.issueAdd),
    put('/issues/{index}/labels', ['issue', 'issueReplaceLabels', 'Replace an issue\'s labels'], labels.issueReplace),
    del('/issues/{index}/labels', ['issue', 'issueClearLabels', 'Remove all labels from an issue'], labels.issueClear),
    del('/issues/{index}/labels/{id}', ['issue', 'issueRemoveLabel', 'Remove a label from an issue'], labels.issueRemove),
    post('/issues/{index}/dependencies', ['issue', 'issueCreateIssueDependencies', 'Make the issue in the url depend on the issue in the form.'], issueDeps.addDependency),
    del('/issues/{index}/dependencies', ['issue', 'issueRemoveIssueDependencies', 'Remove an issue dependency'], issueDeps.removeDependency),
    post('/issues/{index}/blocks', ['issue', 'issueCreateIssueBlocking', 'Block the issue given in the body by the issue in path'], issueDeps.addBlock),
    del('/issues/{index}/blocks', ['issue', 'issueRemoveIssueBlocking', 'Unblock the issue given in the body by the issue in path'], issueDeps.removeBlock),
    put('/issues/{index}/lock', ['issue', 'issueLockIssue', 'Lock an issue'], issuePins.lock),
    del('/issues/{index}/lock', ['issue', 'issueUnlockIssue', 'Unlock an issue'], issuePins.unlock),
    post('/issues/{index}/deadline', ['issue', 'issueEditIssueDeadline', 'Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.'], issueTimes.deadline),
    post('/issues/{index}/stopwatch/start', ['issue', 'issueStartStopWatch', 'Start stopwatch on an issue.'], issueTimes.start),
    post('/issues/{index}/stopwatch/stop', ['issue', 'issueStopStopWatch', 'Stop an issue\'s existing stopwatch.'], issueTimes.stop),
    del('/issues/{index}/stopwatch/delete', ['issue', 'issueDeleteStopWatch', 'Delete an issue\'s existing stopwatch.'], issueTimes.cancel),
    post('/issues/{index}/times', ['issue', 'issueAddTime', 'Add tracked time to a issue'], issueTimes.add),
    del('/issues/{index}/times', ['issue', 'issueResetTime', 'Reset a tracked time of an issue'], issueTimes.reset),
  ]),
  group({ name: 'issue readers, by id', prefix: R, guards: byId(repoReaders('issue')) }, [
    get('/issues/comments/{id}/assets', ['issue', 'issueListIssueCommentAttachments', 'List comment\'s attachments'], attachments.attachmentsEnabled, attachments.comment.list),
    get('/issues/comments/{id}/assets/{attachment_id}', ['issue', 'issueGetIssueCommentAttachment', 'Get a comment attachment'], attachments.attachmentsEnabled, attachments.comment.get),
    get('/issues/comments/{id}/reactions', ['issue', 'issueGetCommentReactions', 'Get a list of reactions from a comment of an issue'], reactions.comment.list),
    get('/issues/comments/{id}', ['issue', 'issueGetComment', 'Get a comment'], issueComments.get),
  ]),
  group({ name: 'issue participants, by id', prefix: R, guards: byId(repoParticipants('issue')) }, [
    post('/issues/comments/{id}/assets', ['issue', 'issueCreateIssueCommentAttachment', 'Create a comment attachment'], attachments.attachmentsEnabled, attachments.comment.create),
    patch('/issues/comments/{id}/assets/{attachment_id}', ['issue', 'issueEditIssueCommentAttachment', 'Edit a comment attachment'], attachments.attachmentsEnabled, attachments.comment.edit),
    del('/issues/comments/{id}/assets/{attachment_id}', ['issue', 'issueDeleteIssueCommentAttachment', 'Delete a comment attachment'], attachments.attachmentsEnabled, attachments.comment.remove),
    patch('/issues/comments/{id}', ['issue', 'issueEditComment', 'Edit a comment'], issueComments.edit),
    del('/issues/comments/{id}', ['issue', 'issueDeleteComment', 'Delete a comment'], issueComments.remove),
  ]),
  group({ name: 'issue readers, signed in, by number', prefix: R, guards: byIndex(repoSignedReaders('issue')) }, [
    post('/issues/{index}/reactions', ['issue', 'issuePostIssueReaction', 'Add a reaction to an issue'], reactions.issue.add),
    del('/issues/{index}/reactions', ['issue', 'issueDeleteIssueReaction', 'Remove a reaction from an issue'], reactions.issue.remove),
    get('/issues/{index}/times', ['issue', 'issueTrackedTimes', 'List an issue\'s tracked times'], issueTimes.issueTimes),
    get('/issues/{index}/subscriptions/check', ['issue', 'issueCheckSubscription', 'Check if user is subscribed to an issue'], issueSubs.check),
    put('/issues/{index}/subscriptions/{user}', ['issue', 'issueAddSubscription', 'Subscribe user to issue'], issueSubs.subscribe),
    del('/issues/{index}/subscriptions/{user}', ['issue', 'issueDeleteSubscription', 'Unsubscribe user from issue'], issueSubs.unsubscribe),
  ]),
  group({ name: 'issue readers, signed in, by id', prefix: R, guards: byId(repoSignedReaders('issue')) }, [
    post('/issues/comments/{id}/reactions', ['issue', 'issuePostCommentReaction', 'Add a reaction to a comment of an issue'], reactions.comment.add),
    del('/issues/comments/{id}/reactions', ['issue', 'issueDeleteCommentReaction', 'Remove a reaction from a comment of an issue'], reactions.comment.remove),
  ]),
  group({ name: 'issue scope, any repository', guards: issueScope }, [
    get('/repos/issues/search', ['issue', 'issueSearchIssues', 'Search for issues across the repositories that the user has access to'], issues.search),
  ]),
  group({ name: 'issue readers', prefix: R, guards: repoReaders('issue') }, [
    get('/issues', ['issue', 'issueListIssues', 'List a repository\'s issues'], issues.list),
    get('/issues/comments', ['issue', 'issueGetRepoComments', 'List all comments in a repository'], issueComments.listRepo),
    get('/labels', ['issue', 'issueListLabels', 'Get all of a repository\'s labels'], labels.list),
    get('/labels/{id}', ['issue', 'issueGetLabel', 'Get a single label'], labels.get),
    get('/milestones', ['issue', 'issueGetMilestonesList', 'Get all of a repository\'s opened milestones'], milestones.list),
    get('/milestones/{id}', ['issue', 'issueGetMilestone', 'Get a milestone'], milestones.get),
    get('/issues/pinned', ['repository', 'repoListPinnedIssues', 'List a repo\'s pinned issues'], issuePins.pinned),
  ]),
  group({ name: 'issue participants', prefix: R, guards: repoParticipants('issue') }, [
    post('/issues', ['issue', 'issueCreateIssue', 'Create an issue. If using deadline only the date will be taken into account, and time of day ignored.'], issues.create),
  ]),
  group({ name: 'repository admins (issue scope), by number', prefix: R, guards: byIndex(repoAdmins('issue')) }, [
    del('/issues/{index}', ['issue', 'issueDelete', 'Delete an issue'], notArchived, issues.remove),
    post('/issues/{index}/pin', ['issue', 'pinIssue', 'Pin an Issue'], notArchived, issuePins.pin),
    del('/issues/{index}/pin', ['issue', 'unpinIssue', 'Unpin an Issue'], notArchived, issuePins.unpin),
    patch('/issues/{index}/pin/{position}', ['issue', 'moveIssuePin', 'Moves the Pin to the given Position'], notArchived, issuePins.move),
  ]),
  group({ name: 'issue participants, by id, by number', prefix: R, guards: byIndex(byId(repoParticipants('issue'))) }, [
    patch('/issues/{index}/comments/{id}', ['issue', 'issueEditCommentDeprecated', 'Edit a comment'], issueComments.edit),
    del('/issues/{index}/comments/{id}', ['issue', 'issueDeleteCommentDeprecated', 'Delete a comment'], issueComments.remove),
  ]),
  group({ name: 'issue writers', prefix: R, guards: repoWriters('issue') }, [
    post('/labels', ['issue', 'issueCreateLabel', 'Create a label'], labels.create),
    patch('/labels/{id}', ['issue', 'issueEditLabel', 'Update a label'], labels.edit),
    del('/labels/{id}', ['issue', 'issueDeleteLabel', 'Delete a label'], labels.remove),
    post('/milestones', ['issue', 'issueCreateMilestone', 'Create a milestone'], milestones.create),
    patch('/milestones/{id}', ['issue', 'issueEditMilestone', 'Update a milestone'], milestones.edit),
    del('/milestones/{id}', ['issue', 'issueDeleteMilestone', 'Delete a milestone'], milestones.remove),
  ]),
  group({ name: 'repository readers, signed in', prefix: R, guards: repoSignedReaders() }, [
    get('/assignees', ['repository', 'repoGetAssignees', 'Return all users that have write access and can be assigned to issues'], issues.assignees),
  ]),
  group({ name: 'issue participants, by number, by id', prefix: R, guards: byId(byIndex(repoParticipants('issue'))) }, [
    del('/issues/{index}/times/{id}', ['issue', 'issueDeleteTime', 'Delete specific tracked time'], issueTimes.remove),
  ]),
  group({ name: 'issue readers, signed in', prefix: R, guards: repoSignedReaders('issue') }, [
    get('/times', ['repository', 'repoTrackedTimes', 'List a repo\'s tracked times'], issueTimes.repoTimes),
    get('/times/{user}', ['repository', 'userTrackedTimes', 'List a user\'s tracked times in a repo'], issueTimes.userRepoTimes),
  ]),
];
