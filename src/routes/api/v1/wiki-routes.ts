import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, notArchived, repoSignedVisitors, repoVisitors, type Guards } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const wiki = lazyModule(() => import('./wiki'));

// A repository's wiki.

const wikiReaders: Guards = [...repoVisitors(), wiki.wikiEnabled];
const wikiWriters: Guards = [...repoSignedVisitors(), wiki.wikiEnabled, notArchived, wiki.reqWikiWriter];

export const wikiRoutes: RouteGroup[] = [
  group({ name: 'wiki readers', prefix: R, guards: wikiReaders }, [
    get('/wiki/pages', {
      id: 'repoGetWikiPages', tag: 'repository', summary: 'Pages of a repository\'s wiki, with their last commit', query: paging,
      responses: { 200: ['WikiPageMetaData'] },
    }, wiki.list),
    get('/wiki/page/{pageName}', {
      id: 'repoGetWikiPage', tag: 'repository', summary: 'One wiki page with its content in base64', responses: { 200: 'WikiPage' },
    }, wiki.get),
    get('/wiki/revisions/{pageName}', {
      id: 'repoGetWikiPageRevisions', tag: 'repository', summary: 'Commits that changed a wiki page, newest first', query: [q.int('page')],
      responses: { 200: 'WikiCommitList' },
    }, wiki.revisions),
  ]),
  group({ name: 'wiki writers', prefix: R, guards: wikiWriters }, [
    post('/wiki/new', { id: 'repoCreateWikiPage', tag: 'repository', summary: 'Add a page to the wiki', body: wiki.schema, responses: { 201: 'WikiPage' } }, wiki.create),
    patch('/wiki/page/{pageName}', {
      id: 'repoEditWikiPage', tag: 'repository', summary: 'Change (or rename) a wiki page', body: wiki.schema, responses: { 200: 'WikiPage' },
    }, wiki.edit),
    del('/wiki/page/{pageName}', { id: 'repoDeleteWikiPage', tag: 'repository', summary: 'Remove a wiki page', responses: { 204: null } }, wiki.remove),
  ]),
];
