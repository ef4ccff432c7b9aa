import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/auth-options";
import { signInRoute } from "@/lib/http/sign-in-route";

// Email sign-in links, their callback, sign-out and the CSRF token of next-auth's own forms.
// The options are built on first request: configuration is read at run time, not at build.
const handler = signInRoute((...args: Parameters<ReturnType<typeof NextAuth>>) =>
  NextAuth(authOptions())(...args),
);

export { handler as GET, handler as POST };
