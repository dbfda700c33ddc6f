/* eslint-disable @typescript-eslint/no-require-imports */
import type MarkdownIt from 'markdown-it';
// Libraries most starts never use, loaded on first use instead of with the server: evaluating
// every module was most of a start's time and memory (bench/startup). The bundle turns each
// require() here into a module initialised at its first call.

/** undici (1.1 MB of modules; its cookies module also pulls in Node's internal copy). */
export const undici = (): typeof import('undici') => require('undici');
/** prom-client, only with [metrics] enabled. */
export const promClient = (): typeof import('prom-client') => require('prom-client');
/** yaml, for workflows and issue templates. */
export const yaml = (): typeof import('yaml') => require('yaml');
/** multer, for multipart uploads. */
export const multer = (): typeof import('multer') => require('multer');
/** The image decoders and the PNG encoder, for avatars. */
export const pngjs = (): typeof import('pngjs') => require('pngjs');
export const jpegJs = (): typeof import('jpeg-js') => require('jpeg-js');
export const omggif = (): typeof import('omggif') => require('omggif');
/** papaparse, for the audit log's CSV export. */
export const papaparse = (): typeof import('papaparse') => require('papaparse');
/** yauzl, for advisory archives. */
export const yauzl = (): typeof import('yauzl') => require('yauzl');
/** yazl, for zipping a v1-v3 artifact's files on the run page's download. */
export const yazl = (): typeof import('yazl') => require('yazl');
/**
 * node-cron, for schedules with fields. Required, not imported, for a second reason: an import
 * makes the bundler take its ESM build, whose import.meta.url is empty in the CommonJS
 * executable and throws as it loads.
 */
export const nodeCron = (): typeof import('node-cron') => require('node-cron');
/** markdown-it's constructor (its CommonJS build exports the function), for rendered markdown. */
export const markdownIt = (): (opts: object) => MarkdownIt => require('markdown-it');
/** sanitize-html, for the user HTML rendered markdown may hold. */
export const sanitizeHtml = (): typeof import('sanitize-html') => require('sanitize-html');
/** markdown-it-emoji's full shortcode table (`:+1:`), a markdown-it plugin. */
export const markdownItEmoji = (): { full: (md: MarkdownIt) => void } => require('markdown-it-emoji');
/**
 * highlight.js's common languages, for code pages. Typed by hand: its own types pull in the DOM
 * library, which changes Node's global types for the whole project.
 */
export type HighlightJs = {
  highlight: (code: string, opts: { language: string; ignoreIllegals?: boolean }) => { value: string };
  highlightAuto: (code: string) => { value: string; language?: string };
  getLanguage: (name: string) => object | undefined;
};
export const highlightJs = (): HighlightJs => require('highlight.js/lib/common');
/** fast-xml-parser, for migrations from Codebase (its API speaks XML). */
export const fastXmlParser = (): typeof import('fast-xml-parser') => require('fast-xml-parser');
/** OpenPGP.js, for the package repositories' signed indexes (apt, rpm, pacman). */
export const openpgp = (): typeof import('openpgp') => require('openpgp');
/** tar-stream, for reading and writing the packages' tar archives. */
export const tarStream = (): typeof import('tar-stream') => require('tar-stream');
