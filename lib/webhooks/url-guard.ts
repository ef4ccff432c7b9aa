import { isIP } from "node:net";
import { config } from "../config";
import { isPrivateAddress } from "../net/private-address";

// Webhook URLs point at merchants' servers. Unless explicitly allowed (development, tests), they
// must be https and name a public host. This is the static check when a URL is saved; every
// attempt connects through lib/net/guarded-fetch, which checks the addresses actually used.

/** Why a URL may not receive webhooks, or null when it may (static checks only). */
export function webhookUrlProblem(
  url: string,
  allowPrivate = config().webhooks.allowPrivateUrls,
): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (parsed.username || parsed.password) return "must not contain credentials";
  if (allowPrivate)
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? null : "must be http(s)";
  if (parsed.protocol !== "https:") return "must use https";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal"))
    return "must be a public host";
  if (isIP(host) && isPrivateAddress(host)) return "must be a public address";
  return null;
}
