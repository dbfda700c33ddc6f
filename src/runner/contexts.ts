// The environment a step starts with: a few variables of the runner's own environment (never all
// of it: the runner's configuration and credentials stay out of jobs), then the GITHUB_*/RUNNER_*
// variables GitHub and act define, derived from the task's github context.

import os from 'node:os';

const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TZ', 'SHELL', 'TERM', 'TMPDIR'];

export function hostEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of INHERITED) if (process.env[k] !== undefined) out[k] = process.env[k]!;
  out.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return out;
}

export function runnerArch(): string {
  return ({ x64: 'X64', arm64: 'ARM64', arm: 'ARM', ia32: 'X86' } as Record<string, string>)[os.arch()] ?? os.arch().toUpperCase();
}

export interface RunnerDirs {
  workspace: string;
  temp: string;
  toolCache: string;
  eventPath: string;
}

const s = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** GITHUB_* (and GITEA_*) variables from the github context, as act sets them. */
export function githubEnv(github: Record<string, unknown>, dirs: RunnerDirs, jobId: string, runnerName: string): Record<string, string> {
  const env: Record<string, string> = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITEA_ACTIONS: 'true',
    GITHUB_WORKSPACE: dirs.workspace,
    GITHUB_EVENT_PATH: dirs.eventPath,
    GITHUB_JOB: jobId,
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: runnerArch(),
    RUNNER_NAME: runnerName,
    RUNNER_TEMP: dirs.temp,
    RUNNER_TOOL_CACHE: dirs.toolCache,
    ImageOS: 'hearth',
  };
  const fields: Record<string, string> = {
    GITHUB_SHA: 'sha', GITHUB_REF: 'ref', GITHUB_REF_NAME: 'ref_name', GITHUB_REF_TYPE: 'ref_type',
    GITHUB_REPOSITORY: 'repository', GITHUB_REPOSITORY_OWNER: 'repository_owner', GITHUB_RUN_ID: 'run_id',
    GITHUB_RUN_NUMBER: 'run_number', GITHUB_RUN_ATTEMPT: 'run_attempt', GITHUB_ACTOR: 'actor',
    GITHUB_TRIGGERING_ACTOR: 'triggering_actor', GITHUB_EVENT_NAME: 'event_name', GITHUB_SERVER_URL: 'server_url',
    GITHUB_API_URL: 'api_url', GITHUB_GRAPHQL_URL: 'graphql_url', GITHUB_WORKFLOW: 'workflow',
    GITHUB_HEAD_REF: 'head_ref', GITHUB_BASE_REF: 'base_ref', GITHUB_RETENTION_DAYS: 'retention_days',
  };
  for (const [name, key] of Object.entries(fields)) env[name] = s(github[key]);
  // what upload/download-artifact read, as act_runner sets them
  const server = s(github.server_url).replace(/\/+$/, '');
  env.ACTIONS_RUNTIME_URL = `${server}/api/actions_pipeline/`;
  env.ACTIONS_RESULTS_URL = server;
  env.ACTIONS_RUNTIME_TOKEN = s(github.gitea_runtime_token) || s(github.token);
  for (const [name, value] of Object.entries({ ...env })) {
    if (name.startsWith('GITHUB_')) env[`GITEA_${name.slice(7)}`] = value;
  }
  return env;
}

export interface StepContext {
  outputs: Record<string, string>;
  outcome: string;
  conclusion: string;
}
