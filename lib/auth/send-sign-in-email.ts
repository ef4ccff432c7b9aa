import { config } from "../config";
import type { Db } from "../db/client";
import { sendEmail } from "./send-email";

/** The sign-in email with its single-use link. */
export async function sendSignInEmail(database: Db, input: { to: string; url: string }) {
  const { serviceName } = config();
  await sendEmail(database, {
    to: input.to,
    subject: `Sign in to ${serviceName}`,
    text: `Sign in to ${serviceName} by opening this link:\n\n${input.url}\n\nThe link works once and expires in 24 hours. If you did not ask for it, ignore this email.\n`,
  });
}
