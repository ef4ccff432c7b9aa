import { hash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "../ids";

// Credentials and one-time tokens are random base62 behind a type prefix, and stored only as
// their SHA-256: a copy of the database authenticates nobody. They are found by an index lookup
// on that hash, so no secret is ever compared byte by byte in application code.

/** A new secret: `prefix` + `length` base62 characters from the CSPRNG. */
export function newSecret(prefix: string, length = 40): string {
  return `${prefix}${randomBase62(length)}`;
}

export function hashSecret(secret: string): string {
  return hash("sha256", secret);
}

/** Compares two hex digests in constant time (for a secret checked against a known row's hash). */
export function digestsEqual(left: string, right: string): boolean {
  const a = Buffer.from(left, "hex");
  const b = Buffer.from(right, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A long-lived credential: the secret (shown once), its hash (stored) and a visible prefix (the
 * type plus four random characters) that lets its owner tell credentials apart in listings.
 */
export function generateCredential(prefix: string) {
  const secret = newSecret(prefix);
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, prefix.length + 4) };
}
