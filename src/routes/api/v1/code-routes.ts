import { notArchived } from '../../middleware/repo-guards';
import { del, get, group, patch, post, put, type RouteGroup } from '../../table';
import { R, codeReaders, codeWriters, repoAdmins } from './route-chains';
import * as branches from './branches';
import * as commits from './commits';
import * as contents from './contents';
import * as gitData from './git-data';
import * as repoLicenses from './repo-licenses';
import * as tags from './tags';
import * as topics from './topics';

// A repository's code: contents, git data, commits and statuses, branches, tags and their protections.

export const codeRoutes: RouteGroup[] = [
  group({ name: 'code readers', prefix: R, guards: codeReaders }, [
    get('/contents', ['repository', 'repoGetContentsList', 'Gets the metadata of all the entries of the root dir'], contents.get),
    get('/contents/{filepath}', ['repository', 'repoGetContents', 'Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir'], contents.get),
    get('/contents-ext/{filepath}', ['repository', 'repoGetContentsExt', 'The extended "contents" API, to get file metadata and/or content, or list a directory.'], contents.getExt),
    get('/file-contents', ['repository', 'repoGetFileContents', 'Get the metadata and contents of requested files'], contents.fileContentsGet),
    post('/file-contents', ['repository', 'repoGetFileContentsPost', 'Get the metadata and contents of requested files'], contents.fileContentsPost),
    get('/raw/{filepath}', ['repository', 'repoGetRawFile', 'Get a file from a repository'], contents.raw),
    get('/media/{filepath}', ['repository', 'repoGetRawFileOrLFS', 'Get a file or it\'s LFS object from a repository'], contents.media),
    get('/editorconfig/{filepath}', ['repository', 'repoGetEditorConfig', 'Get the EditorConfig definitions of a file in a repository'], contents.editorconfig),
    get('/commits', ['repository', 'repoGetAllCommits', 'Get a list of all commits from a repository'], commits.list),
    get('/commits/{ref}/status', ['repository', 'repoGetCombinedStatusByRef', 'Get a commit\'s combined status, by branch/tag/commit reference'], commits.combined),
    get('/commits/{ref}/statuses', ['repository', 'repoListStatusesByRef', 'Get a commit\'s statuses, by branch/tag/commit reference'], commits.listStatusesByRef),
    get('/statuses/{sha}', ['repository', 'repoListStatuses', 'Get a commit\'s statuses'], commits.listStatusesBySha),
    get('/git/commits/{sha}.{diffType}', ['repository', 'repoDownloadCommitDiffOrPatch', 'Get a commit\'s diff or patch'], commits.diff),
    get('/git/commits/{sha}', ['repository', 'repoGetSingleCommit', 'Get a single commit from a repository'], commits.get),
    get('/commits/{sha}', ['repository', 'repoGetCommitByRef', 'Get a single commit (hearth extension, the target of commit_url)', 'extension'], commits.get),
    get('/compare/{basehead}', ['repository', 'repoCompareDiff', 'Get commit comparison information'], commits.compare),
    get('/git/blobs/{sha}', ['repository', 'GetBlob', 'Gets the blob of a repository.'], gitData.blob),
    get('/git/trees/{sha}', ['repository', 'GetTree', 'Gets the tree of a repository.'], gitData.tree),
    get('/git/refs', ['repository', 'repoListAllGitRefs', 'Get specified ref or filtered repository\'s refs'], gitData.refs),
    get('/git/refs/{ref}', ['repository', 'repoListGitRefs', 'Get specified ref or filtered repository\'s refs'], gitData.refs),
    get('/git/tags/{sha}', ['repository', 'GetAnnotatedTag', 'Gets the tag object of an annotated tag (not lightweight tags)'], gitData.annotatedTag),
    get('/git/notes/{sha}', ['repository', 'repoGetNote', 'Get a note corresponding to a single commit from a repository'], gitData.note),
    get('/archive/{archive}', ['repository', 'repoGetArchive', 'Get an archive of a repository'], gitData.archive),
    get('/branches', ['repository', 'repoListBranches', 'List a repository\'s branches'], branches.list),
    get('/branches/{branch}', ['repository', 'repoGetBranch', 'Retrieve a specific branch from a repository, including its effective branch protection'], branches.get),
    get('/tags', ['repository', 'repoListTags', 'List a repository\'s tags'], tags.list),
    get('/tags/{tag}', ['repository', 'repoGetTag', 'Get the tag of a repository by tag name'], tags.get),
    get('/languages', ['repository', 'repoGetLanguages', 'Get languages and number of bytes of code written'], topics.languages),
    get('/licenses', ['repository', 'repoGetLicenses', 'Get repo licenses'], repoLicenses.list),
  ]),
  group({ name: 'code writers', prefix: R, guards: codeWriters }, [
    post('/contents', ['repository', 'repoChangeFiles', 'Modify multiple files in a repository'], contents.changeMany),
    post('/contents/{filepath}', ['repository', 'repoCreateFile', 'Create a file in a repository'], contents.create),
    put('/contents/{filepath}', ['repository', 'repoUpdateFile', 'Update a file in a repository'], contents.update),
    del('/contents/{filepath}', ['repository', 'repoDeleteFile', 'Delete a file in a repository'], contents.remove),
    post('/diffpatch', ['repository', 'repoApplyDiffPatch', 'Apply diff patch to repository'], contents.diffPatch),
    post('/statuses/{sha}', ['repository', 'repoCreateStatus', 'Create a commit status'], commits.createStatus),
    post('/branches', ['repository', 'repoCreateBranch', 'Create a branch'], branches.create),
    del('/branches/{branch}', ['repository', 'repoDeleteBranch', 'Delete a specific branch from a repository'], branches.remove),
    patch('/branches/{branch}', ['repository', 'repoRenameBranch', 'Rename a branch'], branches.rename),
    post('/tags', ['repository', 'repoCreateTag', 'Create a new git tag in a repository'], tags.create),
    del('/tags/{tag}', ['repository', 'repoDeleteTag', 'Delete a repository\'s tag by name'], tags.remove),
  ]),
  group({ name: 'repository admins', prefix: R, guards: repoAdmins() }, [
    get('/branch_protections', ['repository', 'repoListBranchProtection', 'List branch protections for a repository'], branches.listProtections),
    post('/branch_protections', ['repository', 'repoCreateBranchProtection', 'Create a branch protections for a repository'], notArchived, branches.createProtection),
    post('/branch_protections/priority', ['repository', 'repoUpdateBranchProtectionPriories', 'Update the priorities of branch protections for a repository.'], notArchived, branches.setPriorities),
    get('/branch_protections/{name}', ['repository', 'repoGetBranchProtection', 'Get a specific branch protection for the repository'], branches.getProtection),
    patch('/branch_protections/{name}', ['repository', 'repoEditBranchProtection', 'Edit a branch protections for a repository. Only fields that are set will be changed'], notArchived, branches.editProtection),
    del('/branch_protections/{name}', ['repository', 'repoDeleteBranchProtection', 'Delete a specific branch protection for the repository'], branches.removeProtection),
    get('/tag_protections', ['repository', 'repoListTagProtection', 'List tag protections for a repository'], tags.listProtections),
    post('/tag_protections', ['repository', 'repoCreateTagProtection', 'Create a tag protections for a repository'], notArchived, tags.createProtection),
    get('/tag_protections/{id}', ['repository', 'repoGetTagProtection', 'Get a specific tag protection for the repository'], tags.getProtection),
    patch('/tag_protections/{id}', ['repository', 'repoEditTagProtection', 'Edit a tag protections for a repository. Only fields that are set will be changed'], notArchived, tags.editProtection),
    del('/tag_protections/{id}', ['repository', 'repoDeleteTagProtection', 'Delete a specific tag protection for the repository'], tags.removeProtection),
  ]),
];
