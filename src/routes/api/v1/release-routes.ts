import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, byId, notArchived, repoSignedVisitors, repoVisitors, type Guards } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const attachments = lazyModule(() => import('./attachments'));
const releases = lazyModule(() => import('./releases'));

// Releases and their assets.

const releaseReaders: Guards = [...repoVisitors(), releases.releaseReader];
const releaseWriters: Guards = [...repoSignedVisitors(), releases.releaseWriter, notArchived];

export const releaseRoutes: RouteGroup[] = [
  group({ name: 'release readers', prefix: R, guards: releaseReaders }, [
    get('/releases', {
      id: 'repoListReleases', tag: 'repository', summary: 'Releases, newest first (drafts only for writers)',
      query: [q.bool('draft'), q.bool('pre-release'), ...paging], responses: { 200: ['Release'] },
    }, releases.list),
    get('/releases/latest', {
      id: 'repoGetLatestRelease', tag: 'repository', summary: 'The newest release that is neither a draft nor a pre-release',
      responses: { 200: 'Release' },
    }, releases.latest),
    get('/releases/tags/{tag}', { id: 'repoGetReleaseByTag', tag: 'repository', summary: 'The release of a tag', responses: { 200: 'Release' } }, releases.getByTag),
  ]),
  group({ name: 'release writers', prefix: R, guards: releaseWriters }, [
    post('/releases', {
      id: 'repoCreateRelease', tag: 'repository', summary: 'Publish (or draft) a release of a tag', body: releases.createSchema,
      responses: { 201: 'Release' },
    }, releases.create),
    del('/releases/tags/{tag}', {
      id: 'repoDeleteReleaseByTag', tag: 'repository', summary: 'Delete the release of a tag (the tag stays)', responses: { 204: null },
    }, releases.removeByTag),
  ]),
  group({ name: 'release readers, by id', prefix: R, guards: byId(releaseReaders) }, [
    get('/releases/{id}', { id: 'repoGetRelease', tag: 'repository', summary: 'One release by id', params: { id: 'int64' }, responses: { 200: 'Release' } }, releases.get),
    get('/releases/{id}/assets', {
      id: 'repoListReleaseAttachments', tag: 'repository', summary: 'Files attached to a release', params: { id: 'int64' },
      responses: { 200: ['Attachment'] },
    }, releases.listAssets),
    get('/releases/{id}/assets/{attachment_id}', {
      id: 'repoGetReleaseAttachment', tag: 'repository', summary: 'One file attached to a release',
      params: { id: 'int64', attachment_id: 'int64' }, responses: { 200: 'Attachment' },
    }, releases.getAsset),
  ]),
  group({ name: 'release writers, by id', prefix: R, guards: byId(releaseWriters) }, [
    patch('/releases/{id}', {
      id: 'repoEditRelease', tag: 'repository', summary: 'Change a release', params: { id: 'int64' }, body: releases.editSchema,
      responses: { 200: 'Release' },
    }, releases.edit),
    del('/releases/{id}', {
      id: 'repoDeleteRelease', tag: 'repository', summary: 'Delete a release (the tag stays)', params: { id: 'int64' }, responses: { 204: null },
    }, releases.remove),
    post('/releases/{id}/assets', {
      id: 'repoCreateReleaseAttachment', tag: 'repository', summary: 'Attach a file to a release (multipart or raw body)', params: { id: 'int64' },
      query: [q.str('name')], form: [{ name: 'attachment', type: 'file' }], consumes: ['multipart/form-data', 'application/octet-stream'],
      responses: { 201: 'Attachment' },
    }, attachments.attachmentsEnabled, releases.createAsset),
    patch('/releases/{id}/assets/{attachment_id}', {
      id: 'repoEditReleaseAttachment', tag: 'repository', summary: 'Rename a file attached to a release',
      params: { id: 'int64', attachment_id: 'int64' }, body: releases.editAssetSchema, responses: { 201: 'Attachment' },
    }, releases.editAsset),
    del('/releases/{id}/assets/{attachment_id}', {
      id: 'repoDeleteReleaseAttachment', tag: 'repository', summary: 'Remove a file attached to a release',
      params: { id: 'int64', attachment_id: 'int64' }, responses: { 204: null },
    }, releases.removeAsset),
  ]),
];
