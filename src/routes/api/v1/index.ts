import { routesOf, type ApiRoute, type RouteGroup } from '../../table';
import { actionsRoutes } from './actions-routes';
import { actionsOwnerRoutes } from './actions-owner-routes';
import { miscRoutes } from './misc-routes';
import { userRoutes } from './user-routes';
import { adminRoutes } from './admin-routes';
import { repoRoutes } from './repo-routes';
import { codeRoutes } from './code-routes';
import { wikiRoutes } from './wiki-routes';
import { orgRoutes } from './org-routes';
import { issueRoutes } from './issue-routes';
import { issueDetailRoutes } from './issue-detail-routes';
import { releaseRoutes } from './release-routes';
import { notificationRoutes } from './notification-routes';
import { pullRoutes } from './pull-routes';
import { hookRoutes } from './hook-routes';
import { packageRoutes } from './package-routes';

// The API's route table, by area. Each area's file lists its routes in groups that carry who may
// call them once (route-chains.ts): sign-in, token scope, the path's objects, permission; each
// route adds its own checks and handler. Express tries the routes of one sub-router in order
// (see mount() in table.ts), so within an area a route that could shadow another comes after it.
export const apiGroups: RouteGroup[] = [
  ...miscRoutes,
  ...userRoutes,
  ...adminRoutes,
  ...repoRoutes,
  ...codeRoutes,
  ...wikiRoutes,
  ...orgRoutes,
  ...issueRoutes,
  ...issueDetailRoutes,
  ...releaseRoutes,
  ...notificationRoutes,
  ...pullRoutes,
  ...hookRoutes,
  ...packageRoutes,
  ...actionsRoutes,
  ...actionsOwnerRoutes,
];

export const apiRoutes: ApiRoute[] = routesOf(apiGroups);
