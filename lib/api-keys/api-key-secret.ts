import { createHash } from "node:crypto";
import { randomBase62 } from "../ids";

export const apiKeyPrefix = "sk_live_";
const apiKeyShape = /^sk_live_[0-9A-Za-z]{40}$/;
// Characters kept visible in listings: the type prefix plus four of the random part.
const visiblePrefixLength = apiKeyPrefix.length + 4;

export function generateApiKeySecret() {
  const secret = `${apiKeyPrefix}${randomBase62(40)}`;
  return { secret, hash: hashApiKey(secret), prefix: secret.slice(0, visiblePrefixLength) };
}

/** Keys are stored only as this hash; it is what lookups use. */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function looksLikeApiKey(value: string): boolean {
  return apiKeyShape.test(value);
}
