import nodemailer from "nodemailer";
import { config } from "../config";
import type { Db } from "../db/client";
import { newId } from "../ids";
import { log } from "../log";

/** A file an email carries (nodemailer's own shape), its content as text. */
export type EmailAttachment = { filename: string; contentType: string; content: string };

/**
 * An email, plain text with an optional HTML alternative and attachments: by SMTP when configured,
 * else into the development mailbox (attachments kept, for whoever reads it there).
 */
export async function sendEmail(
  database: Db,
  input: { to: string; subject: string; text: string; html?: string; attachments?: EmailAttachment[] },
) {
  const { email } = config();
  if (email.smtpUrl) {
    await nodemailer.createTransport(email.smtpUrl).sendMail({ ...input, from: email.from });
    return;
  }
  if (!email.devMailbox) {
    log.error(
      { subject: input.subject },
      "an email could not be sent: set SMTP_URL (or SERVICE_DEV_MAILBOX=true for development)",
    );
    throw new Error("email is not configured");
  }
  await database.devEmail.create({ data: { id: newId("devEmail"), ...input } });
}
