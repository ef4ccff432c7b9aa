import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { config } from "../config";

// Secrets we must be able to use again (webhook signing secrets) are sealed with AES-256-GCM under
// SERVICE_SECRET_KEY: base64(iv | tag | ciphertext). A changed key fails loudly, never silently.

function key(): Buffer {
  const secretKey = config().secretKey;
  if (!secretKey)
    throw new Error("SERVICE_SECRET_KEY is not set; it is needed to store webhook signing secrets");
  return secretKey;
}

export function sealSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
}

export function openSecret(sealed: string): string {
  const bytes = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key(), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
}
