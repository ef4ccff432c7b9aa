import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";

/**
 * Tells every owner of the organization that an agent credential was issued (through browser
 * setup or signup), with a link to revoke it: an approval nobody meant does not go unnoticed.
 * Sent after the credential is committed; a mail failure is logged and does not undo it.
 */
export async function announceAgentCredential(
  database: Db,
  input: {
    organizationId: string;
    agentName: string;
    access: "read" | "write";
    clientAddress: string | null;
  },
) {
  const owners = await database.membership.findMany({
    where: { organizationId: input.organizationId, role: "OWNER" },
    select: { user: { select: { email: true } }, organization: { select: { name: true } } },
  });
  const { baseUrl, serviceName } = config();
  const access = input.access === "write" ? "read and write" : "read only";
  for (const owner of owners) {
    await sendEmail(database, {
      to: owner.user.email,
      subject: `An agent was connected to ${owner.organization.name}`,
      text: `The agent "${input.agentName}" now has its own ${serviceName} credential for ${owner.organization.name}.\n\nAccess: ${access}\nRequested from: ${input.clientAddress ?? "unknown"}\n\nIf you do not know this agent, revoke it now:\n\n${baseUrl}/dashboard/agents\n`,
    }).catch((error: unknown) => log.error({ err: error }, "the agent credential notice could not be sent"));
  }
}
