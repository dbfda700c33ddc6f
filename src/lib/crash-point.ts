// Failpoints for the crash-recovery tests: with HEARTH_TEST_CRASH_AT naming this point, the
// process kills itself there with SIGKILL, exactly as a power loss or the OOM killer would stop
// it between two steps. The variable is read once; unset (always, outside those tests) this is
// one comparison.

const at = process.env.HEARTH_TEST_CRASH_AT ?? '';

export function crashPoint(name: string): void {
  if (at && at === name) process.kill(process.pid, 'SIGKILL');
}
