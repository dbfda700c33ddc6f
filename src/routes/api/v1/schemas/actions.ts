import * as z from 'zod';
import { extension } from '../../../validate';
import { bool, dateTime, int, str } from './fields';
import { User } from './accounts';
import { Repository } from './repos';

export const ActionWorkflowRun = z.object({
  actor: User,
  completed_at: dateTime,
  conclusion: str,
  display_title: str,
  event: str,
  head_branch: str,
  head_repository: Repository,
  head_sha: str,
  html_url: str,
  id: int,
  path: str,
  repository: Repository,
  repository_id: int,
  run_attempt: int,
  run_number: int,
  started_at: dateTime,
  status: str,
  trigger_actor: User,
  url: str,
  /** Why the workflow file could not be run, when it could not. */
  workflow_error: extension(z.string()),
}).partial();
export const ActionArtifact = z.object({
  archive_download_url: str,
  created_at: dateTime,
  expired: bool,
  expires_at: dateTime,
  id: int,
  name: str,
  size_in_bytes: int,
  updated_at: dateTime,
  url: str,
  workflow_run: ActionWorkflowRun,
}).partial();
export const ActionArtifactsResponse = z.object({
  artifacts: z.array(ActionArtifact),
  total_count: int,
}).partial();
export const ActionRunnerLabel = z.object({
  id: int,
  name: str,
  type: str,
}).partial();
export const ActionRunner = z.object({
  busy: bool,
  ephemeral: bool,
  id: int,
  labels: z.array(ActionRunnerLabel),
  name: str,
  status: str,
}).partial();
export const ActionRunnersResponse = z.object({
  runners: z.array(ActionRunner),
  total_count: int,
}).partial();
export const ActionTask = z.object({
  created_at: dateTime,
  display_title: str,
  event: str,
  head_branch: str,
  head_sha: str,
  id: int,
  name: str,
  run_number: int,
  run_started_at: dateTime,
  status: str,
  updated_at: dateTime,
  url: str,
  workflow_id: str,
}).partial();
export const ActionTaskResponse = z.object({
  total_count: int,
  workflow_runs: z.array(ActionTask),
}).partial();
export const ActionVariable = z.object({
  data: str,
  description: str,
  name: str,
  owner_id: int,
  repo_id: int,
}).partial();
export const ActionWorkflow = z.object({
  badge_url: str,
  created_at: dateTime,
  deleted_at: dateTime,
  html_url: str,
  id: str,
  name: str,
  path: str,
  state: str,
  updated_at: dateTime,
  url: str,
}).partial();
export const ActionWorkflowStep = z.object({
  completed_at: dateTime,
  conclusion: str,
  name: str,
  number: int,
  started_at: dateTime,
  status: str,
}).partial();
export const ActionWorkflowJob = z.object({
  completed_at: dateTime,
  conclusion: str,
  created_at: dateTime,
  head_branch: str,
  head_sha: str,
  html_url: str,
  id: int,
  labels: z.array(str),
  name: str,
  run_attempt: int,
  run_id: int,
  run_url: str,
  runner_id: int,
  runner_name: str,
  started_at: dateTime,
  status: str,
  steps: z.array(ActionWorkflowStep),
  url: str,
}).partial();
export const ActionWorkflowJobsResponse = z.object({
  jobs: z.array(ActionWorkflowJob),
  total_count: int,
}).partial();
export const ActionWorkflowResponse = z.object({
  total_count: int,
  workflows: z.array(ActionWorkflow),
}).partial();
export const ActionWorkflowRunsResponse = z.object({
  total_count: int,
  workflow_runs: z.array(ActionWorkflowRun),
}).partial();
