import { expectTypeOf, it } from 'vitest';
import type * as z from 'zod';
import type * as D from '../../src/routes/api/v1/schemas';
import type { toApiActionTask, toApiArtifact, toApiWorkflowJob, toApiWorkflowRun } from '../../src/convert/actions-run';
import type { toApiRunner, toApiSecret, toApiVariable } from '../../src/convert/actions-settings';
import type { toApiWorkflow } from '../../src/convert/actions-workflow';
import type { toApiActivity } from '../../src/convert/activity';
import type { toApiAuditLog } from '../../src/convert/audit-log';
import type { toApiBranch, toApiBranchProtection, toPayloadCommit } from '../../src/convert/branch';
import type { toApiComment } from '../../src/convert/comment';
import type { toApiCombinedStatus, toApiCommitStatus } from '../../src/convert/commit-status';
import type { toApiCommit } from '../../src/convert/commit';
import type { contentsConverter, toFileCommitResponse, toFileResponse, toFilesResponse } from '../../src/convert/contents';
import type { toApiDependencyAlert } from '../../src/convert/dependency-alert';
import type { toApiDeployKey } from '../../src/convert/deploy-key';
import type { toApiEmail } from '../../src/convert/email';
import type { toApiAnnotatedTag, toApiBlob, toApiRef, toApiTree } from '../../src/convert/git-data';
import type { toApiGpgKey } from '../../src/convert/gpg-key';
import type { toApiDelivery, toApiDeliveryDetail } from '../../src/convert/hook-delivery';
import type { toApiAttachment, toApiIssue } from '../../src/convert/issue';
import type { toApiLabel } from '../../src/convert/label';
import type { toApiMilestone } from '../../src/convert/milestone';
import type { toApiNotification } from '../../src/convert/notification';
import type { toApiOAuth2App } from '../../src/convert/oauth2-app';
import type { toApiOrg, toApiOrgPermissions } from '../../src/convert/org';
import type { toApiPackage, toApiPackageFile } from '../../src/convert/package';
import type { toApiPublicKey } from '../../src/convert/public-key';
import type { toApiPullReview, toApiReviewComment } from '../../src/convert/pull-review';
import type { toApiChangedFile, toApiPull } from '../../src/convert/pull';
import type { toApiPushMirror } from '../../src/convert/push-mirror';
import type { toApiReaction } from '../../src/convert/reaction';
import type { toApiRelease, toApiReleaseAsset } from '../../src/convert/release';
import type { toApiRepoTransfer, toCollaboratorPermission, toTopicResponse, toWatchInfo } from '../../src/convert/repo-social';
import type { toApiRepoWithParent } from '../../src/convert/repo-view';
import type { permissionOf, toApiRepo } from '../../src/convert/repo';
import type { toApiSettings } from '../../src/convert/settings';
import type { toApiTag, toApiTagProtection } from '../../src/convert/tag';
import type { toApiTeam } from '../../src/convert/team';
import type { toApiGitignoreInfo, toApiLabelTemplate, toApiLicenseEntry, toApiLicenseInfo } from '../../src/convert/templates';
import type { toApiTimelineComment } from '../../src/convert/timeline';
import type { toApiToken } from '../../src/convert/token';
import type { toApiStopwatch, toApiTrackedTime } from '../../src/convert/tracked-time';
import type { toApiUser, toApiUserSettings } from '../../src/convert/user';
import type { toApiGitHook, toApiHook } from '../../src/convert/webhook';
import type { toWikiCommit, toWikiCommitList, toWikiPage, toWikiPageMeta } from '../../src/convert/wiki';

// What src/convert returns fits the definitions the swagger publishes (src/routes/api/v1/
// schemas): each field it sends is one the definition declares, with a type it allows. tsc checks
// this file (`npm run typecheck`); a converter that drifts from its definition fails the build.

type Out<F> = F extends (...args: never[]) => infer R ? R : never;
type Declared<S extends z.ZodType> = z.input<S>;
/** Keys of every member of a union (keyof a union gives only the shared ones). */
type Keys<R> = R extends unknown ? keyof R : never;
type Mismatched<R, S extends z.ZodType> = R extends unknown ? {
  [K in keyof R & keyof Declared<S>]-?: [R[K]] extends [Declared<S>[K]] ? never
    : [Exclude<R[K], null>] extends [Declared<S>[K]] ? `${K & string} (null)` : K
}[keyof R & keyof Declared<S>] : never;
/** true, or what is wrong: fields the definition lacks, or fields of another type. */
type Fits<R, S extends z.ZodType> = [R] extends [Declared<S>]
  ? [Exclude<Keys<R>, keyof Declared<S>>] extends [never] ? true : { undeclared: Exclude<Keys<R>, keyof Declared<S>> }
  : { mismatched: Mismatched<R, S> };
type Converts<F, S extends z.ZodType> = Fits<Out<F>, S>;

it('holds every converter to the definition it answers with (checked by tsc)', () => {
  expectTypeOf<Converts<typeof toApiUser, typeof D.User>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiUserSettings, typeof D.UserSettings>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiOrg, typeof D.Organization>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiOrgPermissions, typeof D.OrganizationPermissions>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiTeam, typeof D.Team>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiEmail, typeof D.Email>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiToken, typeof D.AccessToken>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiOAuth2App, typeof D.OAuth2Application>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiPublicKey, typeof D.PublicKey>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiGpgKey, typeof D.GPGKey>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiActivity, typeof D.Activity>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiNotification, typeof D.NotificationThread>>().toEqualTypeOf<true>();
  type Settings = Out<typeof toApiSettings>;
  expectTypeOf<Fits<Settings['api'], typeof D.GeneralAPISettings>>().toEqualTypeOf<true>();
  expectTypeOf<Fits<Settings['attachment'], typeof D.GeneralAttachmentSettings>>().toEqualTypeOf<true>();
  expectTypeOf<Fits<Settings['repository'], typeof D.GeneralRepoSettings>>().toEqualTypeOf<true>();
  expectTypeOf<Fits<Settings['ui'], typeof D.GeneralUISettings>>().toEqualTypeOf<true>();

  expectTypeOf<Converts<typeof toApiRepo, typeof D.Repository>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiRepoWithParent, typeof D.Repository>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof permissionOf, typeof D.Permission>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiRepoTransfer, typeof D.RepoTransfer>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toCollaboratorPermission, typeof D.RepoCollaboratorPermission>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toWatchInfo, typeof D.WatchInfo>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toTopicResponse, typeof D.TopicResponse>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiDeployKey, typeof D.DeployKey>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiPushMirror, typeof D.PushMirror>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiHook, typeof D.Hook>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiGitHook, typeof D.GitHook>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiRelease, typeof D.Release>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiReleaseAsset, typeof D.Attachment>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiPackage, typeof D.Package>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiPackageFile, typeof D.PackageFile>>().toEqualTypeOf<true>();

  expectTypeOf<Converts<typeof toApiBranch, typeof D.Branch>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiBranchProtection, typeof D.BranchProtection>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toPayloadCommit, typeof D.PayloadCommit>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiTag, typeof D.Tag>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiTagProtection, typeof D.TagProtection>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiCommit, typeof D.Commit>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiCommitStatus, typeof D.CommitStatus>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiCombinedStatus, typeof D.CombinedStatus>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<Out<typeof contentsConverter>, typeof D.ContentsResponse>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toFileCommitResponse, typeof D.FileCommitResponse>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toFileResponse, typeof D.FileResponse>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toFilesResponse, typeof D.FilesResponse>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiBlob, typeof D.GitBlobResponse>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiTree, typeof D.GitTreeResponse>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiRef, typeof D.Reference>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiAnnotatedTag, typeof D.AnnotatedTag>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toWikiCommit, typeof D.WikiCommit>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toWikiCommitList, typeof D.WikiCommitList>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toWikiPageMeta, typeof D.WikiPageMetaData>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toWikiPage, typeof D.WikiPage>>().toEqualTypeOf<true>();

  expectTypeOf<Converts<typeof toApiIssue, typeof D.Issue>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiAttachment, typeof D.Attachment>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiComment, typeof D.Comment>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiLabel, typeof D.Label>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiMilestone, typeof D.Milestone>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiReaction, typeof D.Reaction>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiTimelineComment, typeof D.TimelineComment>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiTrackedTime, typeof D.TrackedTime>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiStopwatch, typeof D.StopWatch>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiPull, typeof D.PullRequest>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiChangedFile, typeof D.ChangedFile>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiPullReview, typeof D.PullReview>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiReviewComment, typeof D.PullReviewComment>>().toEqualTypeOf<true>();

  expectTypeOf<Converts<typeof toApiLicenseEntry, typeof D.LicensesTemplateListEntry>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiLicenseInfo, typeof D.LicenseTemplateInfo>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiGitignoreInfo, typeof D.GitignoreTemplateInfo>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiLabelTemplate, typeof D.LabelTemplate>>().toEqualTypeOf<true>();

  expectTypeOf<Converts<typeof toApiWorkflowRun, typeof D.ActionWorkflowRun>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiWorkflowJob, typeof D.ActionWorkflowJob>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiActionTask, typeof D.ActionTask>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiArtifact, typeof D.ActionArtifact>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiSecret, typeof D.Secret>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiVariable, typeof D.ActionVariable>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiRunner, typeof D.ActionRunner>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiWorkflow, typeof D.ActionWorkflow>>().toEqualTypeOf<true>();

  expectTypeOf<Converts<typeof toApiAuditLog, typeof D.AuditLog>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiDelivery, typeof D.HookDelivery>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiDeliveryDetail, typeof D.HookDeliveryDetail>>().toEqualTypeOf<true>();
  expectTypeOf<Converts<typeof toApiDependencyAlert, typeof D.DependencyAlert>>().toEqualTypeOf<true>();
});
