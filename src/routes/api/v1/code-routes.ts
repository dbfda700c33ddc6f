import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { R, codeReaders, codeWriters, notArchived, repoAdmins } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const branches = lazyModule(() => import('./branches'));
const commits = lazyModule(() => import('./commits'));
const contents = lazyModule(() => import('./contents'));
const gitData = lazyModule(() => import('./git-data'));
const repoLicenses = lazyModule(() => import('./repo-licenses'));
const tags = lazyModule(() => import('./tags'));
const topics = lazyModule(() => import('./topics'));

// A repository's code: contents, git data, commits and statuses, branches, tags and their protections.

export const codeRoutes: RouteGroup[] = [
  group({ name: 'code readers', prefix: R, guards: codeReaders }, [
    get('/contents', {
      id: 'repoGetContentsList', tag: 'repository', summary: 'Entries of the repository\'s top directory', query: [q.str('ref')],
      responses: { 200: ['ContentsResponse'] },
    }, contents.get),
    get('/contents/{filepath}', {
      id: 'repoGetContents', tag: 'repository', summary: 'A file with its content in base64, or a directory\'s entries', query: [q.str('ref')],
      responses: { 200: 'ContentsResponse' },
    }, contents.get),
    get('/contents-ext/{filepath}', {
      id: 'repoGetContentsExt', tag: 'repository', summary: 'A path\'s metadata, and on request its content or its directory listing',
      query: [q.str('ref'), q.str('includes')], responses: { 200: 'ContentsExtResponse' },
    }, contents.getExt),
    get('/file-contents', {
      id: 'repoGetFileContents', tag: 'repository', summary: 'Several files at once, by path (query form)',
      query: [q.str('ref'), q.str('body', { required: true })], responses: { 200: ['ContentsResponse'] },
    }, contents.fileContentsGet),
    post('/file-contents', {
      id: 'repoGetFileContentsPost', tag: 'repository', summary: 'Several files at once, by path (body form, for long lists)',
      query: [q.str('ref')], body: { of: contents.getFilesSchema, required: true }, responses: { 200: ['ContentsResponse'] },
    }, contents.fileContentsPost),
    get('/raw/{filepath}', {
      id: 'repoGetRawFile', tag: 'repository', summary: 'A file\'s bytes as stored in git', query: [q.str('ref')],
      responses: { 200: { type: 'file' } }, produces: ['application/octet-stream'],
    }, contents.raw),
    get('/media/{filepath}', {
      id: 'repoGetRawFileOrLFS', tag: 'repository', summary: 'A file\'s bytes, read from LFS when git holds a pointer', query: [q.str('ref')],
      responses: { 200: { type: 'file' } }, produces: ['application/octet-stream'],
    }, contents.media),
    get('/editorconfig/{filepath}', {
      id: 'repoGetEditorConfig', tag: 'repository', summary: 'The .editorconfig settings that apply to a path', query: [q.str('ref')],
      responses: { 200: null },
    }, contents.editorconfig),
    get('/commits', {
      id: 'repoGetAllCommits', tag: 'repository', summary: 'Commits reachable from a ref, newest first',
      query: [q.str('sha'), q.str('path'), q.dateTime('since'), q.dateTime('until'), q.bool('stat'), q.bool('verification'), q.bool('files'), q.int('page'), q.int('limit'), q.str('not')],
      responses: { 200: ['Commit'] },
    }, commits.list),
    get('/commits/{ref}/status', {
      id: 'repoGetCombinedStatusByRef', tag: 'repository', summary: 'The overall CI state of a ref, from the latest status of each context',
      query: paging, responses: { 200: 'CombinedStatus' },
    }, commits.combined),
    get('/commits/{ref}/statuses', {
      id: 'repoListStatusesByRef', tag: 'repository', summary: 'Every status reported for a ref\'s commit',
      query: [q.str('sort', { enum: ['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex'] }), q.str('state', { enum: ['pending', 'success', 'error', 'failure', 'warning'] }), ...paging],
      responses: { 200: ['CommitStatus'] },
    }, commits.listStatusesByRef),
    get('/statuses/{sha}', {
      id: 'repoListStatuses', tag: 'repository', summary: 'Every status reported for a commit',
      query: [q.str('sort', { enum: ['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex'] }), q.str('state', { enum: ['pending', 'success', 'error', 'failure', 'warning'] }), ...paging],
      responses: { 200: ['CommitStatus'] },
    }, commits.listStatusesBySha),
    get('/git/commits/{sha}.{diffType}', {
      id: 'repoDownloadCommitDiffOrPatch', tag: 'repository', summary: 'A commit as a plain diff or as a mail-style patch',
      params: { diffType: ['diff', 'patch'] }, responses: { 200: { type: 'string' } }, produces: ['text/plain'],
    }, commits.diff),
    get('/git/commits/{sha}', {
      id: 'repoGetSingleCommit', tag: 'repository', summary: 'One commit, with its files and stats',
      query: [q.bool('stat'), q.bool('verification'), q.bool('files')], responses: { 200: 'Commit' },
    }, commits.get),
    get('/commits/{sha}', {
      id: 'repoGetCommitByRef', tag: 'repository', summary: 'One commit by ref or SHA (where a combined status\'s commit_url points)',
      extension: true, responses: { 200: 'Commit' },
    }, commits.get),
    get('/compare/{basehead}', {
      id: 'repoCompareDiff', tag: 'repository', summary: 'Commits and changed files between two refs (base...head)', responses: { 200: 'Compare' },
    }, commits.compare),
    get('/git/blobs/{sha}', { id: 'GetBlob', tag: 'repository', summary: 'A blob\'s content in base64', responses: { 200: 'GitBlobResponse' } }, gitData.blob),
    get('/git/trees/{sha}', {
      id: 'GetTree', tag: 'repository', summary: 'A tree\'s entries, optionally recursive and paged',
      query: [q.bool('recursive'), q.int('page'), q.int('per_page')], responses: { 200: 'GitTreeResponse' },
    }, gitData.tree),
    get('/git/refs', { id: 'repoListAllGitRefs', tag: 'repository', summary: 'All refs of the repository', responses: { 200: ['Reference'] } }, gitData.refs),
    get('/git/refs/{ref}', { id: 'repoListGitRefs', tag: 'repository', summary: 'Refs that start with the given name', responses: { 200: ['Reference'] } }, gitData.refs),
    get('/git/tags/{sha}', {
      id: 'GetAnnotatedTag', tag: 'repository', summary: 'An annotated tag object (lightweight tags have none)',
      responses: { 200: 'AnnotatedTag' },
    }, gitData.annotatedTag),
    get('/git/notes/{sha}', {
      id: 'repoGetNote', tag: 'repository', summary: 'The git note attached to a commit', query: [q.bool('verification'), q.bool('files')],
      responses: { 200: 'Note' },
    }, gitData.note),
    get('/archive/{archive}', {
      id: 'repoGetArchive', tag: 'repository', summary: 'The repository at a ref, as a zip, tar.gz or bundle', responses: { 200: null },
    }, gitData.archive),
    // Gitea serves these GitHub-like paths without documenting them: extensions of the description.
    ...([['tarball', 'tar.gz'], ['zipball', 'zip'], ['bundle', 'bundle']] as const).map(([ball, ext]) => get(`/${ball}/{filepath}`, {
      id: `repoDownload${ball[0]!.toUpperCase()}${ball.slice(1)}`, tag: 'repository', extension: true,
      summary: `The repository at a ref, as a ${ext} (the same as /archive/{ref}.${ext})`, responses: { 200: null },
    }, gitData((m) => m.archiveOf(ext)))),
    get('/branches', {
      id: 'repoListBranches', tag: 'repository', summary: 'Branches with their latest commit', query: paging, responses: { 200: ['Branch'] },
    }, branches.list),
    get('/branches/{branch}', {
      id: 'repoGetBranch', tag: 'repository', summary: 'One branch, with the protection that applies to it', responses: { 200: 'Branch' },
    }, branches.get),
    get('/tags', { id: 'repoListTags', tag: 'repository', summary: 'Tags with the commit they point at', query: paging, responses: { 200: ['Tag'] } }, tags.list),
    get('/tags/{tag}', { id: 'repoGetTag', tag: 'repository', summary: 'One tag by name', responses: { 200: 'Tag' } }, tags.get),
    get('/languages', {
      id: 'repoGetLanguages', tag: 'repository', summary: 'Bytes of code per language on the default branch',
      responses: { 200: { type: 'object', additionalProperties: { type: 'integer', format: 'int64' } } },
    }, topics.languages),
    get('/licenses', {
      id: 'repoGetLicenses', tag: 'repository', summary: 'Licences detected on the default branch',
      responses: { 200: { type: 'array', items: { type: 'string' } } },
    }, repoLicenses.list),
  ]),
  group({ name: 'code writers', prefix: R, guards: codeWriters }, [
    post('/contents', {
      id: 'repoChangeFiles', tag: 'repository', summary: 'Create, update, rename and delete several files in one commit',
      body: { of: contents.changeFilesSchema, required: true }, responses: { 201: 'FilesResponse' },
    }, contents.changeMany),
    post('/contents/{filepath}', {
      id: 'repoCreateFile', tag: 'repository', summary: 'Add a file in a new commit', body: { of: contents.createSchema, required: true },
      responses: { 201: 'FileResponse' },
    }, contents.create),
    put('/contents/{filepath}', {
      id: 'repoUpdateFile', tag: 'repository', summary: 'Replace (or move) a file in a new commit',
      body: { of: contents.updateSchema, required: true }, responses: { 200: 'FileResponse' },
    }, contents.update),
    del('/contents/{filepath}', {
      id: 'repoDeleteFile', tag: 'repository', summary: 'Remove a file in a new commit', body: { of: contents.deleteSchema, required: true },
      responses: { 200: 'FileDeleteResponse' },
    }, contents.remove),
    post('/diffpatch', {
      id: 'repoApplyDiffPatch', tag: 'repository', summary: 'Commit the changes of a unified diff',
      body: { of: contents.diffPatchSchema, required: true }, responses: { 200: 'FileResponse' },
    }, contents.diffPatch),
    post('/statuses/{sha}', {
      id: 'repoCreateStatus', tag: 'repository', summary: 'Report a CI status for a commit', body: commits.statusSchema,
      responses: { 201: 'CommitStatus' },
    }, commits.createStatus),
    post('/branches', {
      id: 'repoCreateBranch', tag: 'repository', summary: 'Start a branch from another branch, tag or commit', body: branches.createSchema,
      responses: { 201: 'Branch' },
    }, branches.create),
    del('/branches/{branch}', {
      id: 'repoDeleteBranch', tag: 'repository', summary: 'Delete a branch (protected branches refuse)', responses: { 204: null },
    }, branches.remove),
    patch('/branches/{branch}', {
      id: 'repoRenameBranch', tag: 'repository', summary: 'Give a branch a new name', body: branches.renameSchema, responses: { 204: null },
    }, branches.rename),
    post('/tags', {
      id: 'repoCreateTag', tag: 'repository', summary: 'Add a tag, annotated when a message is given', body: tags.createSchema,
      responses: { 200: 'Tag' },
    }, tags.create),
    del('/tags/{tag}', { id: 'repoDeleteTag', tag: 'repository', summary: 'Delete a tag by name', responses: { 204: null } }, tags.remove),
  ]),
  group({ name: 'repository admins', prefix: R, guards: repoAdmins() }, [
    get('/branch_protections', {
      id: 'repoListBranchProtection', tag: 'repository', summary: 'The repository\'s branch protection rules',
      responses: { 200: ['BranchProtection'] },
    }, branches.listProtections),
    post('/branch_protections', {
      id: 'repoCreateBranchProtection', tag: 'repository', summary: 'Add a branch protection rule', body: branches.createProtectionSchema,
      responses: { 201: 'BranchProtection' },
    }, notArchived, branches.createProtection),
    post('/branch_protections/priority', {
      id: 'repoUpdateBranchProtectionPriories', tag: 'repository', summary: 'Reorder the branch protection rules', body: branches.prioritySchema,
      responses: { 204: null },
    }, notArchived, branches.setPriorities),
    get('/branch_protections/{name}', {
      id: 'repoGetBranchProtection', tag: 'repository', summary: 'One branch protection rule', responses: { 200: 'BranchProtection' },
    }, branches.getProtection),
    patch('/branch_protections/{name}', {
      id: 'repoEditBranchProtection', tag: 'repository', summary: 'Change a branch protection rule; fields left out keep their value',
      body: branches.editProtectionSchema, responses: { 200: 'BranchProtection' },
    }, notArchived, branches.editProtection),
    del('/branch_protections/{name}', {
      id: 'repoDeleteBranchProtection', tag: 'repository', summary: 'Remove a branch protection rule', responses: { 204: null },
    }, branches.removeProtection),
    get('/tag_protections', {
      id: 'repoListTagProtection', tag: 'repository', summary: 'The repository\'s tag protection rules', responses: { 200: ['TagProtection'] },
    }, tags.listProtections),
    post('/tag_protections', {
      id: 'repoCreateTagProtection', tag: 'repository', summary: 'Add a tag protection rule', body: tags.createProtectionSchema,
      responses: { 201: 'TagProtection' },
    }, notArchived, tags.createProtection),
    get('/tag_protections/{id}', {
      id: 'repoGetTagProtection', tag: 'repository', summary: 'One tag protection rule', params: { id: 'integer' },
      responses: { 200: 'TagProtection' },
    }, tags.getProtection),
    patch('/tag_protections/{id}', {
      id: 'repoEditTagProtection', tag: 'repository', summary: 'Change a tag protection rule; fields left out keep their value',
      params: { id: 'integer' }, body: tags.editProtectionSchema, responses: { 200: 'TagProtection' },
    }, notArchived, tags.editProtection),
    del('/tag_protections/{id}', {
      id: 'repoDeleteTagProtection', tag: 'repository', summary: 'Remove a tag protection rule', params: { id: 'integer' },
      responses: { 204: null },
    }, tags.removeProtection),
  ]),
];
