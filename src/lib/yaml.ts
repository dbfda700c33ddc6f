// YAML through the `yaml` package, loaded on first use: only a few endpoints read YAML.

type YamlModule = typeof import('yaml');
let mod: YamlModule | null = null;

/** Parses one YAML document (YAML 1.2 core schema); throws with the parser's message. */
export function parseYaml(text: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  mod ??= require('yaml') as YamlModule;
  return mod.parse(text, { prettyErrors: false });
}

export const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
