import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { R, byId, byIndex, issueScope, notArchived, repoAdmins, repoParticipants, repoReaders, repoSignedReaders, repoWriters } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const issueComments = lazyModule(() => import('./comments'));
const issuePins = lazyModule(() => import('./issue-pins'));
const issueTemplates = lazyModule(() => import('./issue-templates'));
const issues = lazyModule(() => import('./issues'));
const labels = lazyModule(() => import('./labels'));
const milestones = lazyModule(() => import('./milestones'));

// Issues: search, lists, comments, labels, milestones, templates (what goes around one issue is
// in issue-detail-routes.ts).

export const issueRoutes: RouteGroup[] = [
  group({ name: 'repository readers', prefix: R, guards: repoReaders() }, [
    get('/issue_templates', {
      id: 'repoGetIssueTemplates', tag: 'repository', summary: 'Issue templates found in the repository', responses: { 200: ['IssueTemplate'] },
    }, issueTemplates.templates),
    get('/issue_config', {
      id: 'repoGetIssueConfig', tag: 'repository', summary: 'The repository\'s issue template config (blank issues, contact links)',
      responses: { 200: 'IssueConfig' },
    }, issueTemplates.config),
    get('/issue_config/validate', {
      id: 'repoValidateIssueConfig', tag: 'repository', summary: 'Whether the issue template config parses, and what is wrong if not',
      responses: { 200: 'IssueConfigValidation' },
    }, issueTemplates.validateConfig),
    get('/new_pin_allowed', {
      id: 'repoNewPinAllowed', tag: 'repository', summary: 'Whether another issue and another pull request may still be pinned',
      responses: { 200: 'NewIssuePinsAllowed' },
    }, issuePins.allowed),
  ]),
  group({ name: 'issue readers, by number', prefix: R, guards: byIndex(repoReaders('issue')) }, [
    get('/issues/{index}', {
      id: 'issueGetIssue', tag: 'issue', summary: 'One issue or pull request by number', params: { index: 'int64' }, responses: { 200: 'Issue' },
    }, issues.get),
    get('/issues/{index}/comments', {
      id: 'issueGetComments', tag: 'issue', summary: 'Comments on an issue, oldest first', params: { index: 'int64' },
      query: [q.dateTime('since'), q.dateTime('before')], responses: { 200: ['Comment'] },
    }, issueComments.list),
    get('/issues/{index}/labels', {
      id: 'issueGetLabels', tag: 'issue', summary: 'Labels on an issue', params: { index: 'int64' }, responses: { 200: ['Label'] },
    }, labels.issueList),
  ]),
  group({ name: 'issue participants, by number', prefix: R, guards: byIndex(repoParticipants('issue')) }, [
    patch('/issues/{index}', {
      id: 'issueEditIssue', tag: 'issue', summary: 'Change an issue: title, body, state, assignees, milestone, deadline (date only)',
      params: { index: 'int64' }, body: issues.editSchema, responses: { 201: 'Issue' },
    }, issues.edit),
    post('/issues/{index}/comments', {
      id: 'issueCreateComment', tag: 'issue', summary: 'Comment on an issue', params: { index: 'int64' }, body: issueComments.createSchema,
      responses: { 201: 'Comment' },
    }, issueComments.create),
    post('/issues/{index}/labels', {
      id: 'issueAddLabel', tag: 'issue', summary: 'Put labels on an issue, keeping those it has', params: { index: 'int64' },
      body: labels.issueLabelsSchema, responses: { 200: ['Label'] },
    }, labels.issueAdd),
    put('/issues/{index}/labels', {
      id: 'issueReplaceLabels', tag: 'issue', summary: 'Set an issue\'s labels to exactly these', params: { index: 'int64' },
      body: labels.issueLabelsSchema, responses: { 200: ['Label'] },
    }, labels.issueReplace),
    del('/issues/{index}/labels', {
      id: 'issueClearLabels', tag: 'issue', summary: 'Take every label off an issue', params: { index: 'int64' }, responses: { 204: null },
    }, labels.issueClear),
    del('/issues/{index}/labels/{id}', {
      id: 'issueRemoveLabel', tag: 'issue', summary: 'Take one label off an issue', params: { index: 'int64', id: 'int64' },
      responses: { 204: null },
    }, labels.issueRemove),
  ]),
  group({ name: 'issue readers, by id', prefix: R, guards: byId(repoReaders('issue')) }, [
    get('/issues/comments/{id}', {
      id: 'issueGetComment', tag: 'issue', summary: 'One comment by id', params: { id: 'int64' }, responses: { 200: 'Comment', 204: null },
    }, issueComments.get),
  ]),
  group({ name: 'issue participants, by id', prefix: R, guards: byId(repoParticipants('issue')) }, [
    patch('/issues/comments/{id}', {
      id: 'issueEditComment', tag: 'issue', summary: 'Change a comment\'s text', params: { id: 'int64' }, body: issueComments.editSchema,
      responses: { 200: 'Comment', 204: null },
    }, issueComments.edit),
    del('/issues/comments/{id}', {
      id: 'issueDeleteComment', tag: 'issue', summary: 'Delete a comment by id', params: { id: 'int64' }, responses: { 204: null },
    }, issueComments.remove),
  ]),
  group({ name: 'issue scope, any repository', guards: issueScope }, [
    get('/repos/issues/search', {
      id: 'issueSearchIssues', tag: 'issue', summary: 'Issues and pull requests across every repository the caller can see',
      query: [q.str('state', { enum: ['open', 'closed', 'all'], default: 'open' }), q.str('labels'), q.str('milestones'), q.str('q'), q.int('priority_repo_id', { format: 'int64' }), q.str('type', { enum: ['issues', 'pulls'] }), q.dateTime('since'), q.dateTime('before'), q.bool('assigned', { default: false }), q.bool('created', { default: false }), q.bool('mentioned', { default: false }), q.bool('review_requested', { default: false }), q.bool('reviewed', { default: false }), q.str('owner'), q.str('team'), q.int('page', { default: 1, minimum: 1 }), q.int('limit', { minimum: 0 })],
      responses: { 200: ['Issue'] },
    }, issues.search),
  ]),
  group({ name: 'issue readers', prefix: R, guards: repoReaders('issue') }, [
    get('/issues', {
      id: 'issueListIssues', tag: 'issue', summary: 'A repository\'s issues (or pull requests), filtered',
      query: [q.str('state', { enum: ['closed', 'open', 'all'] }), q.str('labels'), q.str('q'), q.str('type', { enum: ['issues', 'pulls'] }), q.str('milestones'), q.dateTime('since'), q.dateTime('before'), q.str('created_by'), q.str('assigned_by'), q.str('mentioned_by'), ...paging],
      responses: { 200: ['Issue'] },
    }, issues.list),
    get('/issues/comments', {
      id: 'issueGetRepoComments', tag: 'issue', summary: 'Comments on all issues of a repository',
      query: [q.dateTime('since'), q.dateTime('before'), ...paging], responses: { 200: ['Comment'] },
    }, issueComments.listRepo),
    get('/labels', { id: 'issueListLabels', tag: 'issue', summary: 'The repository\'s labels', query: paging, responses: { 200: ['Label'] } }, labels.list),
    get('/labels/{id}', {
      id: 'issueGetLabel', tag: 'issue', summary: 'One of the repository\'s labels', params: { id: 'int64' }, namesToo: ['id'], responses: { 200: 'Label' },
    }, labels.get),
    get('/milestones', {
      id: 'issueGetMilestonesList', tag: 'issue', summary: 'The repository\'s milestones (open ones unless asked otherwise)',
      query: [q.str('state'), q.str('name'), ...paging], responses: { 200: ['Milestone'] },
    }, milestones.list),
    get('/milestones/{id}', { id: 'issueGetMilestone', tag: 'issue', summary: 'One milestone, by id or by name', responses: { 200: 'Milestone' } }, milestones.get),
    get('/issues/pinned', {
      id: 'repoListPinnedIssues', tag: 'repository', summary: 'Issues pinned to the top of the repository\'s list', responses: { 200: ['Issue'] },
    }, issuePins.pinned),
  ]),
  group({ name: 'issue participants', prefix: R, guards: repoParticipants('issue') }, [
    post('/issues', {
      id: 'issueCreateIssue', tag: 'issue', summary: 'Open an issue (a deadline keeps its date only)', body: issues.createSchema,
      responses: { 201: 'Issue' },
    }, issues.create),
  ]),
  group({ name: 'repository admins (issue scope), by number', prefix: R, guards: byIndex(repoAdmins('issue')) }, [
    del('/issues/{index}', {
      id: 'issueDelete', tag: 'issue', summary: 'Delete an issue and everything on it', params: { index: 'int64' }, responses: { 204: null },
    }, notArchived, issues.remove),
  ]),
  group({ name: 'issue participants, by id, by number', prefix: R, guards: byIndex(byId(repoParticipants('issue'))) }, [
    patch('/issues/{index}/comments/{id}', {
      id: 'issueEditCommentDeprecated', tag: 'issue', summary: 'Change a comment\'s text (older path with the issue number)', deprecated: true,
      params: { index: 'integer', id: 'int64' }, body: issueComments.editSchema, responses: { 200: 'Comment', 204: null },
    }, issueComments.edit),
    del('/issues/{index}/comments/{id}', {
      id: 'issueDeleteCommentDeprecated', tag: 'issue', summary: 'Delete a comment (older path with the issue number)', deprecated: true,
      params: { index: 'integer', id: 'int64' }, responses: { 204: null },
    }, issueComments.remove),
  ]),
  group({ name: 'issue writers', prefix: R, guards: repoWriters('issue') }, [
    post('/labels', {
      id: 'issueCreateLabel', tag: 'issue', summary: 'Add a label to the repository', body: labels.createSchema, responses: { 201: 'Label' },
    }, labels.create),
    patch('/labels/{id}', {
      id: 'issueEditLabel', tag: 'issue', summary: 'Change one of the repository\'s labels', params: { id: 'int64' }, body: labels.editSchema,
      responses: { 200: 'Label' },
    }, labels.edit),
    del('/labels/{id}', {
      id: 'issueDeleteLabel', tag: 'issue', summary: 'Remove one of the repository\'s labels', params: { id: 'int64' }, responses: { 204: null },
    }, labels.remove),
    post('/milestones', {
      id: 'issueCreateMilestone', tag: 'issue', summary: 'Add a milestone to the repository', body: milestones.createSchema,
      responses: { 201: 'Milestone' },
    }, milestones.create),
    patch('/milestones/{id}', {
      id: 'issueEditMilestone', tag: 'issue', summary: 'Change a milestone', body: milestones.editSchema, responses: { 200: 'Milestone' },
    }, milestones.edit),
    del('/milestones/{id}', { id: 'issueDeleteMilestone', tag: 'issue', summary: 'Remove a milestone', responses: { 204: null } }, milestones.remove),
  ]),
  group({ name: 'repository readers, signed in', prefix: R, guards: repoSignedReaders() }, [
    get('/assignees', {
      id: 'repoGetAssignees', tag: 'repository', summary: 'Users who may be assigned to the repository\'s issues', responses: { 200: ['User'] },
    }, issues.assignees),
  ]),
];
