import { del, get, group, post, type RouteGroup } from '../../table';
import { scope, type Guards } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const packages = lazyModule(() => import('./packages'));

// Packages of an owner (the registries themselves live under /api/packages).

const packageViewers: Guards = [scope('package'), packages.assignPackageOwner];

export const packageRoutes: RouteGroup[] = [
  group({ name: 'package viewers', guards: packageViewers }, [
    get('/packages/{owner}', {
      id: 'listPackages', tag: 'package', summary: 'Package versions an owner published',
      query: [q.int('page'), q.int('limit'), q.str('type', { enum: ['alpine', 'cargo', 'chef', 'composer', 'conan', 'conda', 'container', 'cran', 'debian', 'generic', 'go', 'helm', 'maven', 'npm', 'nuget', 'pub', 'pypi', 'rpm', 'rubygems', 'swift', 'vagrant'] }), q.str('q')],
      responses: { 200: ['Package'] },
    }, packages.list),
    get('/packages/{owner}/{type}/{name}', {
      id: 'listPackageVersions', tag: 'package', summary: 'Every version of one package', query: paging, responses: { 200: ['Package'] },
    }, packages.versions),
    get('/packages/{owner}/{type}/{name}/-/latest', {
      id: 'getLatestPackageVersion', tag: 'package', summary: 'The newest version of a package', responses: { 200: 'Package' },
    }, packages.latest),
    post('/packages/{owner}/{type}/{name}/-/link/{repo_name}', {
      id: 'linkPackage', tag: 'package', summary: 'Show a package on a repository\'s page', responses: { 201: null },
    }, packages.reqPackageWriter, packages.link),
    post('/packages/{owner}/{type}/{name}/-/unlink', {
      id: 'unlinkPackage', tag: 'package', summary: 'Stop showing a package on its repository\'s page', responses: { 201: null, 204: null },
    }, packages.reqPackageWriter, packages.unlink),
    get('/packages/{owner}/{type}/{name}/{version}', {
      id: 'getPackage', tag: 'package', summary: 'One version of a package', responses: { 200: 'Package' },
    }, packages.get),
    del('/packages/{owner}/{type}/{name}/{version}', {
      id: 'deletePackage', tag: 'package', summary: 'Delete one version of a package and its files', responses: { 204: null },
    }, packages.reqPackageWriter, packages.remove),
    get('/packages/{owner}/{type}/{name}/{version}/files', {
      id: 'listPackageFiles', tag: 'package', summary: 'Files of one package version', responses: { 200: ['PackageFile'] },
    }, packages.files),
  ]),
];
