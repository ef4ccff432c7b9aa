import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { config } from "../config";

// The consent page carries the validated authorization request as a server-signed token, so the
// approval POST acts on exactly what was checked and shown, for the user it was shown to, and
// nothing a page or another site could edit.

export type ApprovedRequest = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  resource: string;
  state?: string;
  userId: string;
  /** Unix seconds after which the consent page must be opened again. */
  expiresAt: number;
};

const consentLifetimeSeconds = 10 * 60;

function signingKey(): Buffer {
  const secretKey = config().secretKey;
  if (!secretKey) throw new Error("SERVICE_SECRET_KEY is not set; the OAuth consent page needs it");
  return Buffer.from(hkdfSync("sha256", secretKey, "", "oauth-consent", 32));
}

const mac = (payload: string) => createHmac("sha256", signingKey()).update(payload).digest();

export function signAuthorization(request: Omit<ApprovedRequest, "expiresAt">, now = Date.now()): string {
  const body: ApprovedRequest = { ...request, expiresAt: Math.floor(now / 1000) + consentLifetimeSeconds };
  const payload = Buffer.from(JSON.stringify(body)).toString("base64url");
  return `${payload}.${mac(payload).toString("base64url")}`;
}

/** The signed request if the signature holds, it is for `userId` and has not expired; else null. */
export function verifyAuthorization(
  signed: string,
  userId: string,
  now = Date.now(),
): ApprovedRequest | null {
  const [payload, signature, extra] = signed.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = mac(payload);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const request = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as ApprovedRequest;
  if (request.userId !== userId || request.expiresAt * 1000 < now) return null;
  return request;
}
