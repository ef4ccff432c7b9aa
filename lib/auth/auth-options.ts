import { hkdfSync } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import EmailProvider from "next-auth/providers/email";
import { config } from "../config";
import { db } from "../db/client";
import { recipientEmailField } from "../validation/fields";
import { createAuthAdapter } from "./auth-adapter";
import { sendSignInEmail } from "./send-sign-in-email";

const thirtyDays = 30 * 24 * 60 * 60;

let options: NextAuthOptions | undefined;

/** next-auth's configuration: email magic links, sessions in PostgreSQL. */
export function authOptions(): NextAuthOptions {
  if (options) return options;
  const { authUrl, secretKey } = config();
  // next-auth reads its public address from the environment: hand it the validated one.
  process.env.NEXTAUTH_URL = authUrl;
  if (!secretKey) throw new Error("SERVICE_SECRET_KEY is not set; sign-in needs it");
  options = {
    adapter: createAuthAdapter(db()),
    // A key of its own, derived from the service key, so one secret is all an operator manages.
    secret: Buffer.from(hkdfSync("sha256", secretKey, "", "next-auth", 32)).toString("base64"),
    session: { strategy: "database", maxAge: thirtyDays, updateAge: 24 * 60 * 60 },
    callbacks: {
      // next-auth's own default, except that a callback URL that is neither a path nor a URL (a
      // client's form field, query or cookie) goes to the base URL instead of throwing.
      redirect: ({ url, baseUrl }) =>
        url.startsWith("/") ? `${baseUrl}${url}` : URL.parse(url)?.origin === baseUrl ? url : baseUrl,
      // Pages resolve memberships by user id; the default session carries only name and email.
      session: ({ session, user }) => ({
        ...session,
        user: { id: user.id, email: user.email, name: user.name },
      }),
    },
    // Ours, every one: next-auth's built-in pages (its sign-out confirmation) are its look, not ours.
    pages: { signIn: "/login", signOut: "/dashboard", verifyRequest: "/login/check-email", error: "/login" },
    providers: [
      EmailProvider({
        maxAge: 24 * 60 * 60,
        // Throws on anything but one valid address, so next-auth never mails or stores it.
        normalizeIdentifier: (identifier) => recipientEmailField.parse(identifier),
        sendVerificationRequest: ({ identifier, url }) => sendSignInEmail(db(), { to: identifier, url }),
      }),
    ],
  };
  return options;
}
