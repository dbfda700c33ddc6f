import { loadConfig } from '../../src/config/load';
import { openHearth } from '../../src/hearth';
import { createLogger } from '../../src/lib/logger';

// A job-queue node in a process of its own, for a test to SIGKILL: it claims `hang` jobs, says
// which ("claimed <id>" on stdout) and never finishes them. Configured by the environment (HEARTH__*).

declare module '../../src/services/jobs/payloads' {
  interface JobPayloads { hang: Record<string, never> }
}

async function main(): Promise<void> {
  const config = loadConfig(null, { dataDir: process.argv[2] });
  const h = await openHearth(config, createLogger('silent'));
  h.jobs.register('hang', {
    backoff: () => 1,
    handler: async (_payload, ctx) => {
      process.stdout.write(`claimed ${ctx.jobId}\n`);
      await new Promise(() => {});
    },
  });
  await h.jobs.start();
  process.stdout.write('ready\n');
}
void main();
