import type { Adapter, AdapterSession, AdapterUser, VerificationToken } from "next-auth/adapters";
import { hashSecret as hashToken } from "../crypto/tokens";
import type { Db } from "../db/client";
import type { User } from "../generated/prisma/client";
import { newId } from "../ids";
import { createUserWithOrganization } from "./create-user-with-organization";

const toAdapterUser = (user: User): AdapterUser => ({
  id: user.id,
  email: user.email,
  name: user.name,
  emailVerified: user.emailVerified,
});

/**
 * next-auth's storage in our own tables: users keep their `usr_` ids, a first sign-in also
 * provisions an organization (or joins the ones that invited the email), and sessions are kept
 * by token hash only. Email is the only sign-in method, so accounts are never linked.
 */
export function createAuthAdapter(database: Db): Adapter {
  return {
    createUser: async (user: Omit<AdapterUser, "id">) =>
      toAdapterUser(await createUserWithOrganization(database, user)),
    getUser: async (id) => {
      const user = await database.user.findUnique({ where: { id } });
      return user && toAdapterUser(user);
    },
    getUserByEmail: async (email) => {
      const user = await database.user.findUnique({ where: { email: email.toLowerCase() } });
      return user && toAdapterUser(user);
    },
    getUserByAccount: async () => null,
    updateUser: async ({ id, name, emailVerified }) =>
      toAdapterUser(await database.user.update({ where: { id }, data: { name, emailVerified } })),
    linkAccount: async () => undefined,
    createSession: async ({ sessionToken, userId, expires }) => {
      await database.authSession.create({
        data: { id: newId("authSession"), tokenHash: hashToken(sessionToken), userId, expires },
      });
      return { sessionToken, userId, expires };
    },
    getSessionAndUser: async (sessionToken) => {
      const row = await database.authSession.findUnique({
        where: { tokenHash: hashToken(sessionToken) },
        include: { user: true },
      });
      if (!row) return null;
      const session: AdapterSession = { sessionToken, userId: row.userId, expires: row.expires };
      return { session, user: toAdapterUser(row.user) };
    },
    updateSession: async ({ sessionToken, expires }) => {
      const row = await database.authSession.update({
        where: { tokenHash: hashToken(sessionToken) },
        data: { expires },
      });
      return { sessionToken, userId: row.userId, expires: row.expires };
    },
    deleteSession: async (sessionToken) => {
      await database.authSession.deleteMany({ where: { tokenHash: hashToken(sessionToken) } });
    },
    createVerificationToken: async (token) => database.verificationToken.create({ data: token }),
    useVerificationToken: async ({ identifier, token }) => {
      // Deleting is what makes a link single-use; a second click finds nothing.
      const used = await database.$queryRaw<VerificationToken[]>`
        DELETE FROM "VerificationToken" WHERE "identifier" = ${identifier} AND "token" = ${token}
        RETURNING "identifier", "token", "expires"`;
      return used[0] ?? null;
    },
  };
}
