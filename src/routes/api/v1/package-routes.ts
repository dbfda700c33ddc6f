import { scope } from '../../middleware/guards';
import { del, get, group, post, type RouteGroup } from '../../table';
import { type Guards } from './route-chains';
import * as packages from './packages';

// Packages of an owner (the registries themselves live under /api/packages).

const packageViewers: Guards = [scope('package'), packages.assignPackageOwner];

export const packageRoutes: RouteGroup[] = [
  group({ name: 'package viewers', guards: packageViewers }, [
    get('/packages/{owner}', ['package', 'listPackages', 'Gets all packages of an owner'], packages.list),
    get('/packages/{owner}/{type}/{name}', ['package', 'listPackageVersions', 'Gets all versions of a package'], packages.versions),
    get('/packages/{owner}/{type}/{name}/-/latest', ['package', 'getLatestPackageVersion', 'Gets the latest version of a package'], packages.latest),
    post('/packages/{owner}/{type}/{name}/-/link/{repo_name}', ['package', 'linkPackage', 'Link a package to a repository'], packages.reqPackageWriter, packages.link),
    post('/packages/{owner}/{type}/{name}/-/unlink', ['package', 'unlinkPackage', 'Unlink a package from a repository'], packages.reqPackageWriter, packages.unlink),
    get('/packages/{owner}/{type}/{name}/{version}', ['package', 'getPackage', 'Gets a package'], packages.get),
    del('/packages/{owner}/{type}/{name}/{version}', ['package', 'deletePackage', 'Delete a package'], packages.reqPackageWriter, packages.remove),
    get('/packages/{owner}/{type}/{name}/{version}/files', ['package', 'listPackageFiles', 'Gets all files of a package'], packages.files),
  ]),
];
