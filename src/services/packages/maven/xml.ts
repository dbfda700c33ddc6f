import { BadRequestError } from '../../../lib/errors';

// A minimal, non-validating XML reader for pom files (the project has no XML dependency): it
// builds an element tree with namespace prefixes dropped, as Go's encoding/xml matches local
// names. Comments, processing instructions and a DOCTYPE are skipped; CDATA is text; entities
// are the five predefined ones and character references (no DTD entities: no expansion attacks).

export type XmlElement = { name: string; children: XmlElement[]; text: string };

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_][-\w.:]*/;

const invalid = (why: string) => new BadRequestError(`XML syntax error: ${why}`);

function decodeEntities(s: string): string {
  return s.replace(/&([^;\s&]*);?/g, (all, ent: string) => {
    if (!all.endsWith(';')) throw invalid('invalid character entity');
    if (ent.startsWith('#x')) return codePoint(parseInt(ent.slice(2), 16));
    if (ent.startsWith('#')) return codePoint(parseInt(ent.slice(1), 10));
    const named = ENTITIES[ent];
    if (named === undefined) throw invalid(`invalid character entity &${ent};`);
    return named;
  });
}

function codePoint(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 0x10ffff) throw invalid('invalid character entity');
  return String.fromCodePoint(n);
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** Skips a construct starting at `i` that ends with `end`; returns the index after it. */
function skipPast(src: string, i: number, end: string): number {
  const j = src.indexOf(end, i);
  if (j < 0) throw invalid('unexpected EOF');
  return j + end.length;
}

/** Skips a DOCTYPE, including an internal subset in brackets. */
function skipDoctype(src: string, i: number): number {
  let depth = 0;
  for (let j = i; j < src.length; j++) {
    if (src[j] === '[') depth++;
    else if (src[j] === ']') depth--;
    else if (src[j] === '>' && depth <= 0) return j + 1;
  }
  throw invalid('unexpected EOF');
}

/** Reads a start or end tag at `i` (after '<'); attributes are read past, not kept. */
function readTag(src: string, i: number): { name: string; closing: boolean; selfClosing: boolean; next: number } {
  const closing = src[i] === '/';
  const start = closing ? i + 1 : i;
  const m = NAME.exec(src.slice(start, start + 1024));
  if (!m) throw invalid('invalid tag name');
  let j = start + m[0].length;
  let quote = '';
  for (; j < src.length; j++) {
    const c = src[j]!;
    if (quote) { if (c === quote) quote = ''; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === '>') break;
    else if (c === '<') throw invalid('unexpected < in tag');
  }
  if (j >= src.length) throw invalid('unexpected EOF');
  const selfClosing = !closing && src[j - 1] === '/';
  return { name: localName(m[0]), closing, selfClosing, next: j + 1 };
}

/** Parses a document into its root element; throws BadRequestError on malformed XML. */
export function parseXml(src: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let i = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const text = src.slice(i, lt < 0 ? src.length : lt);
    if (text) {
      const top = stack[stack.length - 1];
      if (top) top.text += decodeEntities(text);
      else if (text.trim()) throw invalid('text outside the root element');
    }
    if (lt < 0) break;
    if (src.startsWith('<!--', lt)) { i = skipPast(src, lt + 4, '-->'); continue; }
    if (src.startsWith('<?', lt)) { i = skipPast(src, lt + 2, '?>'); continue; }
    if (src.startsWith('<![CDATA[', lt)) {
      const end = skipPast(src, lt + 9, ']]>');
      const top = stack[stack.length - 1];
      if (!top) throw invalid('CDATA outside the root element');
      top.text += src.slice(lt + 9, end - 3);
      i = end;
      continue;
    }
    if (src.startsWith('<!DOCTYPE', lt)) { i = skipDoctype(src, lt); continue; }
    const tag = readTag(src, lt + 1);
    i = tag.next;
    if (tag.closing) {
      const open = stack.pop();
      if (!open || open.name !== tag.name) throw invalid(`unexpected end element </${tag.name}>`);
      continue;
    }
    const el: XmlElement = { name: tag.name, children: [], text: '' };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else if (root) throw invalid('more than one root element');
    else root = el;
    if (!tag.selfClosing) stack.push(el);
  }
  if (!root) throw invalid('EOF');
  if (stack.length) throw invalid('unexpected EOF');
  return root;
}

/** The direct children of an element with a local name. */
export const childrenNamed = (el: XmlElement | undefined, name: string): XmlElement[] =>
  el ? el.children.filter((c) => c.name === name) : [];

/** The text of the last direct child of that name ('' when missing), as Go fills a string field. */
export function childText(el: XmlElement | undefined, name: string): string {
  const all = childrenNamed(el, name);
  return all.length ? all[all.length - 1]!.text : '';
}

/** Go's xml.EscapeText, so generated documents (and their checksums) match Gitea's byte for byte. */
export function escapeXmlText(s: string): string {
  return s.replace(/[&<>"'\t\n\r]/g, (c) => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;',
  })[c]!);
}
