import type { Migration } from 'kysely';
import * as m0001 from './0001-users-and-tokens';
import * as m0002 from './0002-repositories';
import * as m0005 from './0005-topics';
import * as m0007 from './0007-organizations';
import * as m0008 from './0008-avatars';
import * as m0011 from './0011-issues';
import * as m0012 from './0012-issue-index';
import * as m0014 from './0014-releases';
import * as m0017 from './0017-pull-requests';
import * as m0018 from './0018-review-teams';
import * as m0019 from './0019-action-comment';
import * as m0020 from './0020-jobs-and-webhooks';
import * as m0021 from './0021-mirrors-and-migrations';
import * as m0022 from './0022-reaction-original-author';
import * as m0023 from './0023-packages';
import * as m0024 from './0024-actions';
import * as m0025 from './0025-lfs-and-deploy-keys';
import * as m0026 from './0026-avatars-oauth2-badges';
import * as m0027 from './0027-audit-and-advisories';
import * as m0028 from './0028-federation';
import * as m0029 from './0029-repo-licenses';
import * as m0030 from './0030-actions-approval';
import * as m0031 from './0031-mirror-lfs';
import * as m0032 from './0032-job-concurrency';
import * as m0034 from './0034-max-parallel';
import * as m0035 from './0035-hot-query-indexes';
import * as m0036 from './0036-pending-ops';
import * as m0037 from './0037-web-sessions';
import * as m0038 from './0038-printed-password';
import * as m0039 from './0039-user-settings';
import * as m0040 from './0040-oauth2-grants';
import * as m0041 from './0041-public-key-verified';
import * as m0043 from './0043-deleted-branches';
import * as m0045 from './0045-package-signing-keys';
import * as m0048 from './0048-pull-viewed-files';
import * as m0049 from './0049-review-threads';
import * as m0051 from './0051-user-redirects';

// Imported statically: the bundled executable has no migrations folder to read at run time.
export const migrations: Record<string, Migration> = {
  '0001-users-and-tokens': m0001,
  '0002-repositories': m0002,
  '0005-topics': m0005,
  '0007-organizations': m0007,
  '0008-avatars': m0008,
  '0011-issues': m0011,
  '0012-issue-index': m0012,
  '0014-releases': m0014,
  '0017-pull-requests': m0017,
  '0018-review-teams': m0018,
  '0019-action-comment': m0019,
  '0020-jobs-and-webhooks': m0020,
  '0021-mirrors-and-migrations': m0021,
  '0022-reaction-original-author': m0022,
  '0023-packages': m0023,
  '0024-actions': m0024,
  '0025-lfs-and-deploy-keys': m0025,
  '0026-avatars-oauth2-badges': m0026,
  '0027-audit-and-advisories': m0027,
  '0028-federation': m0028,
  '0029-repo-licenses': m0029,
  '0030-actions-approval': m0030,
  '0031-mirror-lfs': m0031,
  '0032-job-concurrency': m0032,
  '0034-max-parallel': m0034,
  '0035-hot-query-indexes': m0035,
  '0036-pending-ops': m0036,
  '0037-web-sessions': m0037,
  '0038-printed-password': m0038,
  '0039-user-settings': m0039,
  '0040-oauth2-grants': m0040,
  '0041-public-key-verified': m0041,
  '0043-deleted-branches': m0043,
  '0045-package-signing-keys': m0045,
  '0048-pull-viewed-files': m0048,
  '0049-review-threads': m0049,
  '0051-user-redirects': m0051,
};
