import type { IOptions } from 'sanitize-html';
import { sanitizeHtml } from './lazy-require';

// The HTML a rendered document may keep, as Gitea's sanitizer allows it: markdown's own output
// plus the user HTML people write in READMEs and comments (<details>, <kbd>, images, <sub>,
// task-list checkboxes...), and nothing that runs: no script, no event attribute, no style, no
// javascript: or data: link. Links get rel="nofollow".

const TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'cite', 'code', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'input', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'picture', 'pre',
  'q', 'rp', 'rt', 'ruby', 's', 'samp', 'section', 'small', 'source', 'span', 'strike', 'strong', 'sub', 'summary', 'sup',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'tt', 'u', 'ul', 'var', 'video',
];

type Attributes = Record<string, string>;
const PREFIX = 'user-content-';

/** Ids and anchor names stay in the user-content- namespace, clear of the page's own (#L10, #main). */
function prefixIds(attribs: Attributes): Attributes {
  const out = { ...attribs };
  for (const key of ['id', 'name']) {
    if (out[key] !== undefined && !out[key].startsWith(PREFIX)) out[key] = PREFIX + out[key];
  }
  return out;
}

const OPTIONS: IOptions = {
  allowedTags: TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'class', 'id', 'name'],
    img: ['src', 'alt', 'title', 'width', 'height', 'align', 'loading'],
    source: ['srcset', 'media', 'type'],
    video: ['src', 'controls', 'width', 'height', 'poster'],
    input: ['type', 'checked', 'disabled'],
    details: ['open'],
    ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => [h, ['id']])),
    ol: ['start', 'type'],
    td: ['align', 'colspan', 'rowspan'],
    th: ['align', 'colspan', 'rowspan'],
    p: ['align'],
    div: ['align'],
    code: ['class'],
    li: ['class'],
    ul: ['class'],
    span: ['class'],
  },
  allowedClasses: {
    a: ['mention', 'ref-issue'],
    code: [/^language-[\w+#-]+$/],
    li: ['task-list-item'],
    ul: ['contains-task-list'],
    span: ['emoji'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...prefixIds(attribs), rel: 'nofollow' } }),
    ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => [h, (tagName: string, attribs: Attributes) => ({ tagName, attribs: prefixIds(attribs) })])),
    // Only the checkboxes of task lists, never a working form control.
    input: (tagName, attribs) => (attribs.type === 'checkbox'
      ? { tagName, attribs: { type: 'checkbox', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}) } }
      : { tagName: 'span', attribs: {} }),
  },
};

export function sanitizeRendered(htmlText: string): string {
  return sanitizeHtml()(htmlText, OPTIONS);
}
