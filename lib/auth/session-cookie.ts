import { randomBytes } from "node:crypto";
import { config } from "../config";
import { hashSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
import { newId } from "../ids";

// next-auth's database sessions, read and written directly where a route (not next-auth's own
// handlers) needs them: the cookie carries a random token, the AuthSession row its SHA-256.

const sessionLifetimeMs = 30 * 24 * 60 * 60 * 1000;

/** next-auth's cookie name: `__Secure-` prefixed when the service is served over https. */
export function sessionCookieName(): string {
  const secure = config().baseUrl.startsWith("https://");
  return `${secure ? "__Secure-" : ""}next-auth.session-token`;
}

/** The signed-in user of a request's session cookie and when it signed in, or null. */
export async function findSessionUser(database: Db, sessionToken: string | undefined) {
  if (!sessionToken) return null;
  const session = await database.authSession.findUnique({
    where: { tokenHash: hashSecret(sessionToken) },
    include: { user: { select: { id: true, email: true } } },
  });
  return session && session.expires > new Date() ? { ...session.user, signedInAt: session.createdAt } : null;
}

/** Signs a user in: a new session row, and the cookie that carries its token. */
export async function startAuthSession(database: Db, userId: string) {
  const token = randomBytes(32).toString("hex");
  const expires = new Date(Date.now() + sessionLifetimeMs);
  await database.authSession.create({
    data: { id: newId("authSession"), tokenHash: hashSecret(token), userId, expires },
  });
  return {
    name: sessionCookieName(),
    value: token,
    options: {
      httpOnly: true,
      sameSite: "lax" as const,
      path: "/",
      secure: config().baseUrl.startsWith("https://"),
      expires,
    },
  };
}
