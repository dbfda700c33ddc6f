import { notArchived } from '../../middleware/repo-guards';
import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, byId, repoSignedVisitors, repoVisitors, type Guards } from './route-chains';
import * as attachments from './attachments';
import * as releases from './releases';

// Releases and their assets.

const releaseReaders: Guards = [...repoVisitors(), releases.releaseReader];
const releaseWriters: Guards = [...repoSignedVisitors(), releases.releaseWriter, notArchived];

export const releaseRoutes: RouteGroup[] = [
  group({ name: 'release readers', prefix: R, guards: releaseReaders }, [
    get('/releases', ['repository', 'repoListReleases', 'List a repo\'s releases'], releases.list),
    get('/releases/latest', ['repository', 'repoGetLatestRelease', 'Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at'], releases.latest),
    get('/releases/tags/{tag}', ['repository', 'repoGetReleaseByTag', 'Get a release by tag name'], releases.getByTag),
  ]),
  group({ name: 'release writers', prefix: R, guards: releaseWriters }, [
    post('/releases', ['repository', 'repoCreateRelease', 'Create a release'], releases.create),
    del('/releases/tags/{tag}', ['repository', 'repoDeleteReleaseByTag', 'Delete a release by tag name'], releases.removeByTag),
  ]),
  group({ name: 'release readers, by id', prefix: R, guards: byId(releaseReaders) }, [
    get('/releases/{id}', ['repository', 'repoGetRelease', 'Get a release'], releases.get),
    get('/releases/{id}/assets', ['repository', 'repoListReleaseAttachments', 'List release\'s attachments'], releases.listAssets),
    get('/releases/{id}/assets/{attachment_id}', ['repository', 'repoGetReleaseAttachment', 'Get a release attachment'], releases.getAsset),
  ]),
  group({ name: 'release writers, by id', prefix: R, guards: byId(releaseWriters) }, [
    patch('/releases/{id}', ['repository', 'repoEditRelease', 'Update a release'], releases.edit),
    del('/releases/{id}', ['repository', 'repoDeleteRelease', 'Delete a release'], releases.remove),
    post('/releases/{id}/assets', ['repository', 'repoCreateReleaseAttachment', 'Create a release attachment'], attachments.attachmentsEnabled, releases.createAsset),
    patch('/releases/{id}/assets/{attachment_id}', ['repository', 'repoEditReleaseAttachment', 'Edit a release attachment'], releases.editAsset),
    del('/releases/{id}/assets/{attachment_id}', ['repository', 'repoDeleteReleaseAttachment', 'Delete a release attachment'], releases.removeAsset),
  ]),
];
