import { createHash, timingSafeEqual } from "node:crypto";

const verifierShape = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 7636 S256: base64url(SHA-256(verifier)) equals the challenge, compared in constant time. */
export function verifierMatchesChallenge(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !verifierShape.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
