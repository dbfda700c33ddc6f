/** Commit status states (Gitea's CommitStatusState). */
export const STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'] as const;
export type StatusState = (typeof STATUS_STATES)[number];

/** Gitea's CalcCommitStatus: any error or failure fails; success only when every state passed. */
export function combineStates(states: string[]): StatusState {
  if (states.some((s) => s === 'error' || s === 'failure')) return 'failure';
  const passed = states.filter((s) => s === 'success' || s === 'warning' || s === 'skipped').length;
  return passed > 0 && passed === states.length ? 'success' : 'pending';
}
