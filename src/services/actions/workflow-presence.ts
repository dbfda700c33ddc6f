// Which repositories had no workflow files on their default branch when a trigger job last
// looked, so that their issue and comment events (which run the default branch's workflows)
// queue no job at all: most repositories have no workflows, and each such job read git and the
// database for nothing. Per server and in memory: a restart asks again once per repository.
// A moved ref forgets the repository; the generation keeps a job that looked before a push from
// recording its stale answer after it.

type Entry = { generation: number; emptyOn: string | null };

export class WorkflowPresence {
  private readonly repos = new Map<number, Entry>();

  private entry(repoId: number): Entry {
    let e = this.repos.get(repoId);
    if (!e) this.repos.set(repoId, (e = { generation: 0, emptyOn: null }));
    return e;
  }

  /** Taken by a job before it looks at the repository. */
  generation(repoId: number): number {
    return this.entry(repoId).generation;
  }

  /** Refs of the repository moved: whatever was known is gone. */
  moved(repoId: number): void {
    const e = this.entry(repoId);
    e.generation += 1;
    e.emptyOn = null;
  }

  /** `branch` (the default one) had no workflows, as of `generation`. */
  recordEmpty(repoId: number, generation: number, branch: string): void {
    const e = this.entry(repoId);
    if (e.generation === generation) e.emptyOn = branch;
  }

  /** True when `branch`, still the default one, is known to have no workflows. */
  knownEmpty(repoId: number, branch: string): boolean {
    return this.repos.get(repoId)?.emptyOn === branch;
  }
}
