import type { RequestHandler } from 'express';
import { webAssetByFile } from '../../lib/web-assets';

/** GET /assets/{name}.{hash}.{ext}: the stylesheet or script, kept a year, precompressed. */
export const serveWebAsset: RequestHandler = (req, res, next) => {
  const asset = webAssetByFile(String(req.params.file));
  if (!asset) return next();
  const accepts = String(req.headers['accept-encoding'] ?? '');
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Vary', 'Accept-Encoding');
  const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : '';
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.send(encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.raw);
};
