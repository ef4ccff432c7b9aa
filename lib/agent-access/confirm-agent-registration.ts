import { digestsEqual } from "../crypto/tokens";
import type { Db } from "../db/client";
import { gone, invalidRequest, notFound, ServiceError } from "../errors";
import { newId } from "../ids";
import { limitFailures } from "../rate-limit/rate-limit";
import { agentTokenHash, userCodeHash } from "./agent-access-tokens";
import { confirmOutcome } from "./registration-state";

const alreadyConfirmed = () =>
  gone("registration_already_confirmed", "This signup was already confirmed. Sign in to open the dashboard.");

/** The signup a confirmation link points to, with what opening it would do, or null. */
export async function findAgentRegistrationByLink(database: Db, confirmToken: string | null | undefined) {
  const hash = agentTokenHash("registrationConfirm", confirmToken);
  const registration =
    hash && (await database.agentRegistration.findUnique({ where: { confirmTokenHash: hash } }));
  if (!registration) return null;
  return { registration, outcome: confirmOutcome(registration.status, registration.expiresAt <= new Date()) };
}

/**
 * The pairing code typed on the confirmation page must be the one the agent showed. Wrong codes
 * count against the signup: a few, then 429 for an hour, so guessing among 20^8 gets nowhere.
 */
function assertPairingCode(
  registration: { id: string; pairingCodeHash: string | null },
  code: string | null,
) {
  return limitFailures("wrongCode", `signup:${registration.id}`, 400, async () => {
    const typed = userCodeHash(code);
    if (!typed || !registration.pairingCodeHash || !digestsEqual(typed, registration.pairingCodeHash)) {
      throw invalidRequest(
        "wrong_pairing_code",
        "This is not the pairing code your agent showed. Type the code from your agent.",
        "pairingCode",
      );
    }
  });
}

/**
 * The owner opened the confirmation link and typed the agent's pairing code: provisions the user (email verified by this very
 * link), an organization named after the project with them as owner, once. The agent's
 * credential is created when the agent collects it, so its secret is never stored.
 */
export async function confirmAgentRegistration(
  database: Db,
  input: { confirmToken: string | null; pairingCode: string | null },
) {
  const found = await findAgentRegistrationByLink(database, input.confirmToken);
  if (!found) throw notFound("agent signup", "token");
  if (found.outcome === "already_confirmed") throw alreadyConfirmed();
  if (found.outcome === "expired") {
    throw gone(
      "registration_expired",
      "This signup expired. Sign in, then connect your agent with browser setup.",
    );
  }
  const { registration } = found;
  await assertPairingCode(registration, input.pairingCode);
  return database.$transaction(async (tx) => {
    const now = new Date();
    const { count } = await tx.agentRegistration.updateMany({
      where: { id: registration.id, status: "PENDING", expiresAt: { gt: now } },
      data: { status: "CONFIRMED", confirmedAt: now },
    });
    if (count !== 1) throw alreadyConfirmed();
    // Someone may have signed up in the browser with this email since: never take that account over.
    if (await tx.user.findUnique({ where: { email: registration.email } })) {
      throw new ServiceError(
        409,
        "invalid_request_error",
        "account_exists",
        "This email already has an account. Sign in, then connect your agent with browser setup.",
      );
    }
    const user = await tx.user.create({
      data: { id: newId("user"), email: registration.email, emailVerified: now },
    });
    const organization = await tx.organization.create({
      data: { id: newId("organization"), name: registration.projectName },
    });
    await tx.membership.create({
      data: { id: newId("membership"), organizationId: organization.id, userId: user.id, role: "OWNER" },
    });
    await tx.agentRegistration.update({
      where: { id: registration.id },
      data: { organizationId: organization.id, userId: user.id },
    });
    return { user, organization };
  });
}
