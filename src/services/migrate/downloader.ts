// What every source of a migration hands the uploader (Gitea's base.Downloader): labels,
// milestones, issues, comments, pull requests, reviews, releases and topics, each in one shape
// whatever the service. Lists come page by page (one transaction per page on our side); an item
// the service does not have is an empty list. Each service's downloader lives in downloaders/.

/** An author on the source: its numeric id there (0 when unknown) and its login. */
export type SourceUser = { id: number; login: string } | null | undefined;

export type SourceLabel = { name: string; color: string; description?: string; exclusive?: boolean; is_archived?: boolean };

export type SourceMilestone = {
  title: string; description?: string; state?: string; due_on?: string | null; closed_at?: string | null;
  created_at?: string | null; updated_at?: string | null;
};

/** `content` in Gitea's names: +1, -1, laugh, hooray, confused, heart, rocket, eyes. */
export type SourceReaction = { user: SourceUser; content: string; created_at?: string };

export type SourceComment = {
  id: number; body?: string; user: SourceUser; created_at?: string; updated_at?: string; reactions?: SourceReaction[];
};

/** A comment of the repository-wide list: `issue` is its issue's or pull request's number. */
export type RepoComment = SourceComment & { issue: number };

export type SourceIssue = {
  number: number; title: string; body?: string; user: SourceUser; state: string; is_locked?: boolean;
  labels?: { name: string }[] | null; milestone?: { title: string } | null; ref?: string;
  created_at?: string; updated_at?: string; closed_at?: string | null; due_date?: string | null;
  reactions?: SourceReaction[];
  /** The downloader's own handle (an id other than the number, comments read with the item). */
  foreign?: unknown;
};

/** `fork`: the owner of the repository the head lives in, when not the migrated one. */
export type SourceBranch = { ref?: string; sha?: string; fork?: string };

export type SourcePull = SourceIssue & {
  merged?: boolean; merged_at?: string | null; merge_commit_sha?: string | null; merged_by?: SourceUser;
  merge_base?: string; head?: SourceBranch; base?: SourceBranch;
};

/** A line comment of a review: `line` is on the new side when positive, the old side when negative. */
export type SourceReviewComment = {
  path: string; line: number; diff_hunk?: string; body?: string; user: SourceUser; commit_id?: string;
  created_at?: string; updated_at?: string;
};

/** `state` in Gitea's names: APPROVED, REQUEST_CHANGES, COMMENT (others are not migrated). */
export type SourceReview = {
  id: number; user: SourceUser; state: string; body?: string; commit_id?: string; stale?: boolean; dismissed?: boolean;
  official?: boolean; submitted_at?: string; updated_at?: string; comments?: SourceReviewComment[];
};

/** `url`: where the downloader fetches the file from (downloadAsset). */
export type SourceAsset = { id: number; name: string; size?: number; download_count?: number; created_at?: string; url: string };

export type SourceRelease = {
  id: number; tag_name: string; target_commitish?: string; name?: string; body?: string; draft?: boolean;
  prerelease?: boolean; created_at?: string; published_at?: string; author?: SourceUser; assets?: SourceAsset[] | null;
};

export interface Downloader {
  /** For logs: the service and the repository read, never a credential. */
  readonly describe: string;
  /**
   * Refspecs git fetches besides branches and tags when pull requests are imported: a pull's
   * head where the service keeps one (into refs/pull/N/head, or refs/migrate/* to be renamed).
   */
  pullRefspecs(): string[];
  getLabels(): AsyncIterable<SourceLabel[]>;
  getMilestones(): AsyncIterable<SourceMilestone[]>;
  /** Issues only (not pull requests), each with its reactions. */
  getIssues(): AsyncIterable<SourceIssue[]>;
  /** An issue's or a pull request's comments with their reactions, oldest first. */
  getComments(item: SourceIssue): Promise<SourceComment[]>;
  /**
   * Where the service lists every comment of the repository at once (GitHub): pages of them,
   * each naming its issue or pull request. With it, comments come after the items, a page at a
   * time, instead of a request per item (Gitea's SupportGetRepoComments).
   */
  getAllComments?: () => AsyncIterable<RepoComment[]>;
  /** Pull requests with their reactions; numbers already distinct from the issues'. */
  getPullRequests(): AsyncIterable<SourcePull[]>;
  getReviews(pull: SourcePull): Promise<SourceReview[]>;
  getReleases(): AsyncIterable<SourceRelease[]>;
  /** True when the asset may be fetched (only from the source itself, as Gitea). */
  isSourceAsset(asset: SourceAsset): boolean;
  /** Streams an asset to `file`; the size written. */
  downloadAsset(asset: SourceAsset, file: string): Promise<number>;
  getTopics(): Promise<string[]>;
}

/** Sources without some of the items: each left out answers nothing. */
export abstract class NullDownloader implements Downloader {
  abstract readonly describe: string;
  pullRefspecs(): string[] { return []; }
  async *getLabels(): AsyncIterable<SourceLabel[]> {}
  async *getMilestones(): AsyncIterable<SourceMilestone[]> {}
  async *getIssues(): AsyncIterable<SourceIssue[]> {}
  async getComments(_item: SourceIssue): Promise<SourceComment[]> { return []; }
  async *getPullRequests(): AsyncIterable<SourcePull[]> {}
  async getReviews(_pull: SourcePull): Promise<SourceReview[]> { return []; }
  async *getReleases(): AsyncIterable<SourceRelease[]> {}
  isSourceAsset(_asset: SourceAsset): boolean { return false; }
  async downloadAsset(_asset: SourceAsset, _file: string): Promise<number> { throw new Error('this source has no release assets'); }
  async getTopics(): Promise<string[]> { return []; }
}

/** Splits a list into pages of `size` (sources that answer everything at once). */
export function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
