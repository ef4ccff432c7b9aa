import { sendEmail } from "../auth/send-email";
import type { Db } from "../db/client";
import { log } from "../log";

/**
 * Emails every owner of the organization (but `except`, the user who acted), after the change it
 * tells of committed: a failed email is logged as an alert and undoes nothing, since the dashboard
 * shows the change either way.
 */
export async function emailOwners(
  database: Db,
  organizationId: string,
  email: { subject: string; text: string },
  except?: string,
) {
  const owners = await database.membership.findMany({
    where: { organizationId, role: "OWNER", ...(except ? { userId: { not: except } } : {}) },
    select: { user: { select: { email: true } } },
  });
  for (const { user } of owners) {
    try {
      await sendEmail(database, { to: user.email, ...email });
    } catch (error) {
      log.error(
        { err: error, organizationId, alert: true },
        `an email to an owner could not be sent: ${email.subject}`,
      );
    }
  }
}
