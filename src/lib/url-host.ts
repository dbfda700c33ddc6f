// The host name of root_url, parsed once per value: converters ask for it for every user and
// repository of a listing.
let last = { url: '', host: '' };

export function hostOf(url: string): string {
  if (last.url !== url) last = { url, host: new URL(url).hostname };
  return last.host;
}
