import { serveJobs } from './serial-worker';
import { highlightLines } from './highlight';

// The highlighter's thread (services/highlight), bundled on its own by build.mjs.
serveJobs(({ text, fileName }: { text: string; fileName: string }) => highlightLines(text, fileName));
