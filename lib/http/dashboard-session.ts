import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { cache } from "react";
import type { z } from "zod";
import { authOptions } from "../auth/auth-options";
import { findSessionUser, sessionCookieName } from "../auth/session-cookie";
import { type Actor, assertSignedInRecently, authorize } from "../authority/authorize";
import { type OperationId, requirementOf } from "../authority/operations";
import { db } from "../db/client";
import { toServiceError, unauthenticated } from "../errors";
import type { MembershipRole } from "../generated/prisma/client";
import { listMemberships } from "../organizations/list-memberships";
import { parseOrThrow } from "../validation/validation-error";
import { formFields } from "./form-fields";

// The dashboard's caller kind: a signed-in browser acting in one of its organizations. Pages
// call requireMember(), server actions are wrapped in memberAction(); both resolve membership
// on every request, so a removed member loses access at once.

/** The cookie naming which of the user's organizations the dashboard shows. */
export const organizationCookie = "cc_org";

export type MemberContext = {
  user: { id: string; email: string; name: string | null };
  organization: { id: string; name: string };
  role: MembershipRole;
  memberships: Awaited<ReturnType<typeof listMemberships>>;
};

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name?: string | null };
  }
}

/** The signed-in member, or null (no session, or no organization left). */
export const findMember = cache(async (): Promise<MemberContext | null> => {
  const session = await getServerSession(authOptions());
  if (!session?.user?.id) return null;
  const memberships = await listMemberships(db(), session.user.id);
  const selected = (await cookies()).get(organizationCookie)?.value;
  const current = memberships.find((m) => m.organization.id === selected) ?? memberships[0];
  if (!current) return null;
  return {
    user: { id: session.user.id, email: session.user.email, name: session.user.name ?? null },
    organization: current.organization,
    role: current.role,
    memberships,
  };
});

/** The authority table's view of a signed-in member. */
export function actorOfMember(member: MemberContext): Actor {
  return { kind: member.role === "OWNER" ? "owner" : "member" };
}

/** How recent a sign-in must be for what changes where money goes (lib/authority/operations.ts). */
export { recentSignInMs } from "../authority/authorize";

/** When the browser's session was signed in, or null without one. */
export async function signedInAt(): Promise<Date | null> {
  const user = await findSessionUser(db(), (await cookies()).get(sessionCookieName())?.value);
  return user?.signedInAt ?? null;
}

/** For pages under /dashboard: the member, or a redirect to sign-in. */
export async function requireMember(): Promise<MemberContext> {
  const member = await findMember();
  if (!member) redirect("/login");
  return member;
}

export type ActionResult<T> =
  | { ok: true; data: T; at: number }
  | {
      ok: false;
      /** `signInAgain`: the action needs a recent sign-in; the form links to one that comes back. */
      error: { message: string; param?: string; signInAgain?: true };
      at: number;
    };

/**
 * A server action of the dashboard: checks the session and membership, and the authority table's
 * row for `operation` (role, recent sign-in), parses the form with a zod schema from lib, runs one domain function, and answers
 * with its result or a readable error. Next.js only accepts server actions from the app's own
 * origin, and the session cookie is SameSite=Lax, so forms are safe from cross-site posts.
 */
export function memberAction<S extends z.ZodType, T>(
  operation: OperationId,
  schema: S,
  action: (member: MemberContext, input: z.output<S>) => Promise<T>,
) {
  return async (_previous: ActionResult<T> | null, form: FormData): Promise<ActionResult<T>> => {
    const at = Date.now();
    try {
      const member = await findMember();
      if (!member) throw unauthenticated("signed_out", "Your session has ended. Sign in again.");
      authorize(actorOfMember(member), operation);
      if (requirementOf(operation).recentSignIn) assertSignedInRecently(operation, await signedInAt());
      const data = await action(member, parseOrThrow(schema, formFields(form)));
      // Every dashboard page reads fresh data after a change, wherever it was made.
      revalidatePath("/dashboard", "layout");
      return { ok: true, data, at };
    } catch (error) {
      const known = toServiceError(error, randomUUID());
      const signInAgain = known.code === "reauthentication_required" ? { signInAgain: true as const } : {};
      return { ok: false, error: { message: known.message, param: known.param, ...signInAgain }, at };
    }
  };
}
