import { authorizeAgentSetupSchema } from "@/lib/agent-access/agent-access-schemas";
import { decideAgentSetup } from "@/lib/agent-access/decide-agent-setup";
import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { sessionRoute } from "@/lib/http/route";

export const POST = sessionRoute(async ({ request, user }) => ({
  body: await decideAgentSetup(db(), {
    userId: user.id,
    signedInAt: user.signedInAt,
    ...(await readJson(request, authorizeAgentSetupSchema)),
  }),
}));
