"use server";

import { cookies } from "next/headers";
import { z } from "zod";
import { config } from "@/lib/config";
import { notFound as notFoundError } from "@/lib/errors";
import { memberAction, organizationCookie } from "@/lib/http/dashboard-session";

export const switchOrganizationAction = memberAction(
  "organization.read",
  z.object({ organizationId: z.string() }),
  async (member, { organizationId }) => {
    if (!member.memberships.some((m) => m.organization.id === organizationId)) {
      throw notFoundError("organization", "organizationId");
    }
    (await cookies()).set(organizationCookie, organizationId, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config().authUrl.startsWith("https://"),
    });
    return { organizationId };
  },
);
