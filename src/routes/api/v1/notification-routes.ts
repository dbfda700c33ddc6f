import { get, group, patch, put, type RouteGroup } from '../../table';
import { R, currentUserNotifications, repoSignedReaders } from './route-chains';
import { paging, q } from '../../query';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const notifications = lazyModule(() => import('./notifications'));

// Notifications of the caller.

export const notificationRoutes: RouteGroup[] = [
  group({ name: 'the caller, notification scope', guards: currentUserNotifications }, [
    get('/notifications', {
      id: 'notifyGetList', tag: 'notification', summary: 'The caller\'s notifications (unread and pinned unless asked otherwise)',
      query: [q.bool('all'), q.list('status-types'), q.list('subject-type', { enum: ['issue', 'pull', 'commit', 'repository'] }), q.dateTime('since'), q.dateTime('before'), ...paging],
      responses: { 200: ['NotificationThread'] },
    }, notifications.listMine),
    put('/notifications', {
      id: 'notifyReadList', tag: 'notification', summary: 'Mark the caller\'s notifications read, unread or pinned',
      query: [q.dateTime('last_read_at'), q.str('all'), q.list('status-types'), q.str('to-status')], responses: { 205: ['NotificationThread'] },
    }, notifications.markMine),
    get('/notifications/new', {
      id: 'notifyNewAvailable', tag: 'notification', summary: 'How many unread notifications the caller has',
      responses: { 200: 'NotificationCount' },
    }, notifications.newCount),
    get('/notifications/threads/{id}', {
      id: 'notifyGetThread', tag: 'notification', summary: 'One notification of the caller', responses: { 200: 'NotificationThread' },
    }, notifications.get),
    patch('/notifications/threads/{id}', {
      id: 'notifyReadThread', tag: 'notification', summary: 'Mark one notification read (or as the query says)',
      query: [q.str('to-status', { default: 'read' })], responses: { 205: 'NotificationThread' },
    }, notifications.mark),
  ]),
  group({ name: 'repository readers, signed in (notification scope)', prefix: R, guards: repoSignedReaders('notification') }, [
    get('/notifications', {
      id: 'notifyGetRepoList', tag: 'notification', summary: 'The caller\'s notifications from one repository',
      query: [q.bool('all'), q.list('status-types'), q.list('subject-type', { enum: ['issue', 'pull', 'commit', 'repository'] }), q.dateTime('since'), q.dateTime('before'), ...paging],
      responses: { 200: ['NotificationThread'] },
    }, notifications.listRepo),
    put('/notifications', {
      id: 'notifyReadRepoList', tag: 'notification', summary: 'Mark the caller\'s notifications from one repository',
      query: [q.str('all'), q.list('status-types'), q.str('to-status'), q.dateTime('last_read_at')], responses: { 205: ['NotificationThread'] },
    }, notifications.markRepo),
  ]),
];
