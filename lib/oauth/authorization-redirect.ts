import { issuer } from "./oauth-settings";

/**
 * The redirect back to the client (RFC 6749 4.1.2), with `state` echoed and `iss` (RFC 9207) so
 * the client can tell which server answered.
 */
export function authorizationRedirect(
  redirectUri: string,
  params: Record<string, string>,
  state: string | undefined,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set("state", state);
  url.searchParams.set("iss", issuer());
  return url.toString();
}
