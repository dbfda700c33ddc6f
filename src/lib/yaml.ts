import { yaml } from './lazy-require';

/** Parses one YAML document (YAML 1.2 core schema); throws with the parser's message. */
export function parseYaml(text: string): unknown {
  return yaml().parse(text, { prettyErrors: false });
}

export const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
