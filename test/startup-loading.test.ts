import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// What a start evaluates before it answers: the modules src/main.ts reaches through static
// imports, with the CLI it loads at once (src/cli/program.ts). The bundle wraps a module reached
// only through import() in an initialiser that runs on first use, so everything else here stays
// unevaluated until a request, an event, a job or a command needs it (README "The single
// executable"; bench/startup measures what that saves). A static import that pulls one of these
// areas back into the start fails here.

const ROOT = path.join(__dirname, '..');
let reached: string[] = [];
let reachedPackages: string[] = [];

/** The src/ modules (and node_modules files) reachable from the start through static imports only. */
async function startModules(): Promise<{ src: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'src/main.ts')], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'cjs',
    write: false, metafile: true, outfile: 'out.cjs', logLevel: 'silent', external: ['better-sqlite3', 'cpu-features', '*.node'],
  });
  const inputs: Metafile['inputs'] = result.metafile.inputs;
  const seen = new Set<string>();
  const todo = ['src/main.ts', 'src/cli/program.ts'];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of inputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) todo.push(i.path);
  }
  return { src: [...seen].filter((f) => f.startsWith('src/')).sort(), packages: [...seen].filter((f) => f.startsWith('node_modules/')) };
}

describe('what a start evaluates', () => {
  beforeAll(async () => { ({ src: reached, packages: reachedPackages } = await startModules()); }, 60_000);

  it('reaches the route table, not the API handlers or the guards they run', () => {
    expect(reached).toContain('src/routes/api/v1/index.ts');
    const handlers = reached.filter((f) => f.startsWith('src/routes/api/v1/')
      && !/(-routes|route-chains|index|audit-log-query)\.ts$/.test(f));
    expect(handlers).toEqual([]);
    expect(reached.filter((f) => /src\/routes\/middleware\/(guards|repo-guards|org-guards)\.ts$/.test(f))).toEqual([]);
  });

  it('leaves the web pages, git and LFS over HTTP, the registries, artifacts and avatars to their first request', () => {
    const eager = reached.filter((f) => /^src\/routes\/(web|packages|oauth2)\//.test(f)
      || /^src\/routes\/(git-http|lfs|actions-artifacts|actions-artifacts-v3|actions-runner|avatar|internal-ssh|swagger-doc)\.ts$/.test(f));
    expect(eager).toEqual([]);
  });

  it('leaves the event subscribers, job kinds, cron tasks and crash recoveries to their first use', () => {
    const eager = reached.filter((f) => /^src\/services\/(webhook|mirror|security|notification|activity|doctor|packages|lfs)\//.test(f)
      || /^src\/services\/(actions\/triggers|pull\/subscribers|issue\/closing-keywords|repo\/licenses|recovery\/handlers)\.ts$/.test(f)
      || (/^src\/services\/cron\/tasks\//.test(f) && !f.endsWith('/index.ts')));
    expect(eager).toEqual([]);
  });

  it('leaves the admin commands\' services to the command that runs', () => {
    expect(reached).toContain('src/cli/admin.ts');
    expect(reached.filter((f) => /^src\/(cli\/admin-user-actions|services\/user\/admin-users|services\/security\/import|services\/admin\/badges)\.ts$/.test(f)))
      .toEqual([]);
  });

  it('leaves PostgreSQL (pg and src/db/postgres) to a start whose driver is postgres', () => {
    expect(reachedPackages.length).toBeGreaterThan(0);
    expect(reached).toContain('src/db/connect.ts');
    expect(reached.filter((f) => f.startsWith('src/db/postgres/'))).toEqual([]);
    expect(reachedPackages.filter((f) => /^node_modules\/(pg|pg-[a-z-]+|pgpass)\//.test(f))).toEqual([]);
  });

  it('leaves the S3 store and the AWS SDK to a start whose [storage] type is s3', () => {
    expect(reached).toContain('src/lib/blob-storage/local.ts');
    expect(reached).not.toContain('src/lib/blob-storage/s3.ts');
    expect(reachedPackages.filter((f) => /^node_modules\/@(aws-sdk|smithy|aws-crypto)\//.test(f))).toEqual([]);
  });

  it('stays a small part of the sources (a new eager import of a whole area shows here first)', () => {
    // 449 modules before the areas above loaded lazily; 163 after.
    expect(reached.length).toBeLessThan(200);
  });
});
