// Gitea's CommentType numbers, stored in comment.type: the timeline renders each kind.
export const COMMENT_TYPE = {
  comment: 0,
  reopen: 1,
  close: 2,
  issueRef: 3,
  commitRef: 4,
  commentRef: 5,
  pullRef: 6,
  label: 7,
  milestone: 8,
  assignees: 9,
  changeTitle: 10,
  deleteBranch: 11,
  startTracking: 12,
  stopTracking: 13,
  addTimeManual: 14,
  cancelTracking: 15,
  addedDeadline: 16,
  modifiedDeadline: 17,
  removedDeadline: 18,
  addDependency: 19,
  removeDependency: 20,
  code: 21,
  review: 22,
  lock: 23,
  unlock: 24,
  changeTargetBranch: 25,
  deleteTimeManual: 26,
  reviewRequest: 27,
  mergePull: 28,
  pullRequestPush: 29,
  project: 30,
  projectColumn: 31,
  dismissReview: 32,
  changeIssueRef: 33,
  prScheduledToAutoMerge: 34,
  prUnscheduledToAutoMerge: 35,
  pin: 36,
  unpin: 37,
  changeTimeEstimate: 38,
} as const;

/** The kinds issue.num_comments counts (Gitea: comments and reviews). */
export const COUNTED_COMMENT_TYPES: number[] = [COMMENT_TYPE.comment, COMMENT_TYPE.code, COMMENT_TYPE.review];

/** Kinds whose body a user may edit (Gitea's HasContentSupport). */
export const CONTENT_COMMENT_TYPES: number[] = [COMMENT_TYPE.comment, COMMENT_TYPE.code, COMMENT_TYPE.review, COMMENT_TYPE.dismissReview];
