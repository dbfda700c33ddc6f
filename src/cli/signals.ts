// Ctrl-C reaches a command twice when it runs under npm (`npm start`, `npm run dev`): the
// terminal sends SIGINT to the whole process group and npm forwards its own copy to its child.
// A signal within a second of the first is that copy, not the user's second Ctrl-C.
const SAME_PRESS_MS = 1000;

/**
 * Calls `first` on the first SIGINT or SIGTERM; a separate later one exits at once (the user
 * insists). Returns the function that removes the handlers.
 */
export function onStopSignals(first: (signal: NodeJS.Signals) => void, exitCode = 1): () => void {
  let firstAt = 0;
  const handler = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (!firstAt) {
      firstAt = now;
      first(signal);
    } else if (now - firstAt >= SAME_PRESS_MS) {
      process.exit(exitCode);
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
