import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { sendEmail } from "../auth/send-email";
import { config } from "../config";
import type { Db } from "../db/client";
import { gone, ServiceError } from "../errors";
import { newId } from "../ids";
import type { RegisterAgentInput } from "./agent-access-schemas";
import { newAgentToken, newUserCode, userCodeHash } from "./agent-access-tokens";

/** A pending agent signup lives 24 hours (docs/agents.md, "Agent signup"). */
export const registrationLifetimeMs = 24 * 60 * 60_000;

const refusal = (code: string, message: string) =>
  new ServiceError(409, "invalid_request_error", code, message);

/**
 * First call of agent signup: for an email with no account, stores a pending signup (hashes
 * only), mails its confirmation link and returns a pairing code for the agent to show its user.
 * The confirmation page asks for that code, so the email alone (forwarded, or sent to an address
 * the requester does not own) hands no credential to anyone. Counted against the same email budgets as sign-in
 * before anything is looked up, so it tells no more about which emails have accounts, and no
 * faster, than the sign-in page does.
 */
export async function startAgentRegistration(
  database: Db,
  input: RegisterAgentInput,
  options: { clientAddress: string },
) {
  await assertEmailSendAllowed({ clientAddress: options.clientAddress, email: input.email });
  if (await database.user.findUnique({ where: { email: input.email } })) {
    throw refusal(
      "account_exists",
      "This email already has an account. Connect the agent to it with browser setup (`crypto-checkout setup`) or OAuth on the MCP server.",
    );
  }
  const earlier = await database.agentRegistration.findFirst({
    where: { email: input.email },
    orderBy: { createdAt: "desc" },
  });
  if (earlier && earlier.expiresAt > new Date()) {
    throw refusal(
      "registration_pending",
      "A confirmation email for this address is already on its way. Poll with the check-in token from the first call.",
    );
  }
  if (earlier) {
    throw gone(
      "registration_expired",
      "An earlier signup for this email expired. Sign in at the dashboard, then connect the agent with browser setup (`crypto-checkout setup`).",
    );
  }

  const checkin = newAgentToken("registrationCheckin");
  const confirm = newAgentToken("registrationConfirm");
  const pairingCode = newUserCode();
  const registration = await database.agentRegistration.create({
    data: {
      id: newId("agentRegistration"),
      email: input.email,
      projectName: input.projectName,
      agentName: input.agentName,
      ref: input.ref ?? null,
      checkinTokenHash: checkin.hash,
      confirmTokenHash: confirm.hash,
      pairingCodeHash: userCodeHash(pairingCode),
      clientAddress: options.clientAddress,
      expiresAt: new Date(Date.now() + registrationLifetimeMs),
    },
  });
  const { baseUrl, serviceName } = config();
  try {
    await sendEmail(database, {
      to: input.email,
      subject: `Confirm your ${serviceName} account for ${input.projectName}`,
      text: `A coding agent "${input.agentName}" at the address ${options.clientAddress} asked to create a ${serviceName} account for the project "${input.projectName}" with this email address.\n\nTo confirm, open this link and type the pairing code your agent shows you:\n\n${baseUrl}/agent/register/confirm?token=${confirm.token}\n\nThe link expires in 24 hours. If you did not ask for this, ignore this email: nothing is created. Never type a pairing code someone else sent you.\n`,
    });
  } catch (error) {
    // Nothing was sent, so nothing may be pending either: the caller can simply try again.
    await database.agentRegistration.delete({ where: { id: registration.id } });
    throw error;
  }
  return { registration, checkinToken: checkin.token, pairingCode };
}
