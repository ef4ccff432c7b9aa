/**
 * Where to go after signing in: a path on this site only. `//evil.example` and `/\evil.example`
 * are other sites to a browser, and absolute URLs are refused outright (no open redirect).
 */
export function sameSitePath(candidate: string | undefined, fallback = "/dashboard"): string {
  return candidate && /^\/(?![/\\])/.test(candidate) ? candidate : fallback;
}
