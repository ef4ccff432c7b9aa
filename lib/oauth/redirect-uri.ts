// Redirect URIs (OAuth 2.1 and RFC 8252): https anywhere, plain http only to the loopback
// interface (native apps and CLIs), never a fragment. Matching is exact, except that a loopback
// URI matches on any port, since a native app picks a free port at run time.

const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Why a URI cannot be registered as a redirect URI, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "must be an absolute URL";
  }
  if (url.hash || uri.includes("#")) return "must not contain a fragment";
  if (url.username || url.password) return "must not contain credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:")
    return loopbackHosts.has(url.hostname) ? null : "must use https (http only on loopback)";
  return "must use https (http only on loopback)";
}

/** Whether `requested` is one of the client's registered redirect URIs. */
export function matchesRegisteredRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  if (redirectUriProblem(requested) !== null) return false;
  const wanted = new URL(requested);
  if (wanted.protocol !== "http:" || !loopbackHosts.has(wanted.hostname)) return false;
  return registered.some((candidate) => {
    const known = new URL(candidate);
    return (
      known.protocol === "http:" &&
      known.hostname === wanted.hostname &&
      known.pathname === wanted.pathname &&
      known.search === wanted.search
    );
  });
}
