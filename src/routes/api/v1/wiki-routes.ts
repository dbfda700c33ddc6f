import { notArchived } from '../../middleware/repo-guards';
import { del, get, group, patch, post, type RouteGroup } from '../../table';
import { R, repoSignedVisitors, repoVisitors, type Guards } from './route-chains';
import * as wiki from './wiki';

// A repository's wiki.

const wikiReaders: Guards = [...repoVisitors(), wiki.wikiEnabled];
const wikiWriters: Guards = [...repoSignedVisitors(), wiki.wikiEnabled, notArchived, wiki.reqWikiWriter];

export const wikiRoutes: RouteGroup[] = [
  group({ name: 'wiki readers', prefix: R, guards: wikiReaders }, [
    get('/wiki/pages', ['repository', 'repoGetWikiPages', 'Get all wiki pages'], wiki.list),
    get('/wiki/page/{pageName}', ['repository', 'repoGetWikiPage', 'Get a wiki page'], wiki.get),
    get('/wiki/revisions/{pageName}', ['repository', 'repoGetWikiPageRevisions', 'Get revisions of a wiki page'], wiki.revisions),
  ]),
  group({ name: 'wiki writers', prefix: R, guards: wikiWriters }, [
    post('/wiki/new', ['repository', 'repoCreateWikiPage', 'Create a wiki page'], wiki.create),
    patch('/wiki/page/{pageName}', ['repository', 'repoEditWikiPage', 'Edit a wiki page'], wiki.edit),
    del('/wiki/page/{pageName}', ['repository', 'repoDeleteWikiPage', 'Delete a wiki page'], wiki.remove),
  ]),
];
