import { serveJobs } from './serial-worker';
import { renderMarkdown, type RenderEnv } from './markdown';

// The markdown renderer's thread (lib/markdown-offthread), bundled on its own by build.mjs.
serveJobs(({ text, env }: { text: string; env: RenderEnv }) => renderMarkdown(text, env));
