import nodemailer from "nodemailer";
import { config } from "../config";
import type { Db } from "../db/client";
import { newId } from "../ids";
import { log } from "../log";

/** The sign-in email: by SMTP when configured, else into the development mailbox. */
export async function sendSignInEmail(database: Db, input: { to: string; url: string }) {
  const { serviceName, email } = config();
  const subject = `Sign in to ${serviceName}`;
  const text = `Sign in to ${serviceName} by opening this link:\n\n${input.url}\n\nThe link works once and expires in 24 hours. If you did not ask for it, ignore this email.\n`;
  if (email.smtpUrl) {
    await nodemailer
      .createTransport(email.smtpUrl)
      .sendMail({ to: input.to, from: email.from, subject, text });
    return;
  }
  if (!email.devMailbox) {
    log.error(
      "a sign-in email could not be sent: set SMTP_URL (or SERVICE_DEV_MAILBOX=true for development)",
    );
    throw new Error("email is not configured");
  }
  await database.devEmail.create({ data: { id: newId("devEmail"), to: input.to, subject, text } });
}
