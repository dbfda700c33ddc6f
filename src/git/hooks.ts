import fs from 'node:fs';
import path from 'node:path';
import { privateTmpName } from '../lib/place-once';

// The pre-receive hook hands the ref updates to the server through files in a per-push
// directory and waits for its verdict. Plain sh: works from source and from the executable.
const PRE_RECEIVE = `#!/bin/sh
# Installed by hearth: do not edit. Asks the hearth server whether these ref updates may land.
d="$HEARTH_HOOK_DIR"
[ -n "$d" ] || exit 0
{ echo "$GIT_QUARANTINE_PATH"; cat; } > "$d/request.tmp" && mv "$d/request.tmp" "$d/request" || exit 1
i=0
while [ ! -f "$d/verdict" ]; do
  i=$((i + 1))
  [ "$i" -gt 3000 ] && { echo "hearth: no answer from the server" >&2; exit 1; }
  sleep 0.02
done
[ -f "$d/message" ] && cat "$d/message" >&2
exit "$(cat "$d/verdict")"
`;

/** Writes the hooks directory (once per start) and returns its path, for core.hooksPath. */
export function installHooks(dataDir: string): string {
  const dir = path.join(dataDir, 'hooks');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'pre-receive');
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current !== PRE_RECEIVE) {
    // A name of this process's own: nodes sharing the data directory may write it at once.
    const tmp = privateTmpName(file);
    fs.writeFileSync(tmp, PRE_RECEIVE, { mode: 0o755 });
    fs.renameSync(tmp, file);
  }
  return dir;
}

export type RefUpdate = { oldId: string; newId: string; ref: string };

/** Parses the hook's request file: quarantine path, then `old new ref` lines. */
export function parseHookRequest(text: string): { quarantine: string; updates: RefUpdate[] } {
  const [quarantine = '', ...lines] = text.split('\n');
  const updates = lines.filter(Boolean).map((l) => {
    const [oldId, newId, ref] = l.split(' ');
    return { oldId: oldId!, newId: newId!, ref: ref! };
  });
  return { quarantine, updates };
}
