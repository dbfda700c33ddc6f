import { get, group, patch, put, type RouteGroup } from '../../table';
import { R, currentUserNotifications, repoSignedReaders } from './route-chains';
import * as notifications from './notifications';

// Notifications of the caller.

export const notificationRoutes: RouteGroup[] = [
  group({ name: 'the caller, notification scope', guards: currentUserNotifications }, [
    get('/notifications', ['notification', 'notifyGetList', 'List users\'s notification threads'], notifications.listMine),
    put('/notifications', ['notification', 'notifyReadList', 'Mark notification threads as read, pinned or unread'], notifications.markMine),
    get('/notifications/new', ['notification', 'notifyNewAvailable', 'Check if unread notifications exist'], notifications.newCount),
    get('/notifications/threads/{id}', ['notification', 'notifyGetThread', 'Get notification thread by ID'], notifications.get),
    patch('/notifications/threads/{id}', ['notification', 'notifyReadThread', 'Mark notification thread as read by ID'], notifications.mark),
  ]),
  group({ name: 'repository readers, signed in (notification scope)', prefix: R, guards: repoSignedReaders('notification') }, [
    get('/notifications', ['notification', 'notifyGetRepoList', 'List users\'s notification threads on a specific repo'], notifications.listRepo),
    put('/notifications', ['notification', 'notifyReadRepoList', 'Mark notification threads as read, pinned or unread on a specific repo'], notifications.markRepo),
  ]),
];
